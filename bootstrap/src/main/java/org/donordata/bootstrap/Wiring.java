package org.donordata.bootstrap;

import java.security.SecureRandom;
import java.time.Clock;

import org.donordata.adapters.http.HttpApi;
import org.donordata.adapters.sql.SqlDatabase;
import org.donordata.adapters.webhooks.HttpWebhookSender;
import org.donordata.application.ApplicationService;
import org.donordata.application.ChangeTokens;
import org.donordata.application.DonorService;
import org.donordata.application.TrailService;
import org.donordata.application.fields.CustomFieldService;
import org.donordata.application.webhooks.WebhookDelivery;
import org.donordata.application.webhooks.WebhookService;

/** The object graph: the only place where adapters are plugged into the use cases. */
final class Wiring implements AutoCloseable {

    private final SqlDatabase database;
    private final Settings.Webhooks webhookSettings;
    private final Clock clock = Clock.systemUTC();
    private final DonorService donors;
    private final TrailService trail;
    private final ApplicationService applications;
    private final WebhookService webhooks;
    private final CustomFieldService fields;
    private ChangeTokens tokens;
    private HttpWebhookSender sender;

    private Wiring(SqlDatabase database, Settings.Webhooks webhookSettings) {
        this.database = database;
        this.webhookSettings = webhookSettings;
        this.donors = new DonorService(database.donors(), clock);
        this.trail = new TrailService(database.donors(), database.trail());
        this.applications = new ApplicationService(database.applications(), clock, new SecureRandom());
        this.webhooks = new WebhookService(database.webhooks(), database.applications(), webhookSettings.urls(), clock);
        this.fields = new CustomFieldService(database.customFields(), database.donors(), clock);
    }

    /** Opens the database (creating and migrating it as needed) and builds the use cases on it. */
    static Wiring open(Settings settings) {
        return new Wiring(SqlDatabase.open(settings.database(), settings.apiKeyCacheLifetime()), settings.webhooks());
    }

    DonorService donors() {
        return donors;
    }

    CustomFieldService fields() {
        return fields;
    }

    TrailService trail() {
        return trail;
    }

    ApplicationService applications() {
        return applications;
    }

    HttpApi httpApi() {
        return new HttpApi(donors, trail, applications, webhooks, fields, tokens());
    }

    /** This node's webhook deliverers, started: close them before this. */
    synchronized WebhookDeliverers startWebhookDeliverers() {
        if (sender == null) {
            sender = new HttpWebhookSender(webhookSettings.urls().addresses());
        }
        return WebhookDeliverers.start(new WebhookDelivery(database.webhooks(), database.donors(), sender, tokens(),
                webhookSettings.failures(), webhookSettings.lease(), clock), webhookSettings.lease(),
                new WriterLoad(database::writerCpuNanos, System::nanoTime), clock);
    }

    // Made when first needed: the installation's secret is written by the first node that asks, which a command
    // that never hands out a token need not be.
    private synchronized ChangeTokens tokens() {
        if (tokens == null) {
            tokens = new ChangeTokens(database.changeTokenSecret());
        }
        return tokens;
    }

    SqlDatabase database() {
        return database;
    }

    @Override
    public synchronized void close() {
        if (sender != null) {
            sender.close();
        }
        database.close();
    }
}
