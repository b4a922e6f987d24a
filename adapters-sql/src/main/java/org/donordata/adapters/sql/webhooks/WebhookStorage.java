package org.donordata.adapters.sql.webhooks;

import static org.donordata.adapters.sql.schema.Tables.WEBHOOK_ENDPOINTS;

import java.util.List;

import org.donordata.adapters.sql.kit.CopiedTable;
import org.donordata.adapters.sql.kit.StoredConcern;

/** The webhook endpoints' table (where delivery to each stands included), as a copy sees it. */
public final class WebhookStorage implements StoredConcern {

    public static final WebhookStorage INSTANCE = new WebhookStorage();

    private WebhookStorage() {
    }

    @Override
    public List<CopiedTable> copiedTables() {
        return List.of(new CopiedTable(WEBHOOK_ENDPOINTS, WEBHOOK_ENDPOINTS.ID, "webhook endpoint"));
    }
}
