package org.donordata.adapters.sql;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.donordata.application.Application;
import org.donordata.application.ApplicationId;
import org.donordata.application.ApplicationRepository;
import org.donordata.application.Caller;
import org.donordata.application.KeyHash;
import org.donordata.application.RepositoryWrites;
import org.donordata.application.Scope;
import org.donordata.application.TestApplications;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorField;
import org.donordata.domain.DonorType;
import org.donordata.domain.ExpectedVersion;

/**
 * Applications and donors with everything a copy could get wrong: Unicode in every script, emoji, nulls, both
 * flags, a rotated and a revoked key, and timestamps to the microsecond, some donors modified after creation.
 */
public final class DonorFixture {

    /** Every key the fixture ever issues, the retired ones included, so tests can look each one up. */
    static final List<String> KEYS = List.of("key of the Förderverein", "old key of the crm", "key of the crm",
            "key of the mailing tool", "key of the crm's donation form");

    static final Instant START = Instant.parse("2019-03-04T05:06:07.123456Z");

    private DonorFixture() {
    }

    /**
     * Three applications, the second with a key rotated away and a scoped key that expires, the last with its key
     * revoked, and {@code donors} donors spread over them.
     */
    public static List<Application> fill(SqlDatabase database, int donors) {
        ApplicationRepository keys = database.applications();
        Application forderverein = TestApplications.create(keys, "Förderverein 🎻", KEYS.get(0), START).application();
        Caller crm = TestApplications.create(keys, "crm", KEYS.get(1), START.plusMillis(1));
        keys.rotate(crm.key(), KeyHash.of(KEYS.get(2)), START.plusMillis(2), RepositoryWrites.TESTER,
                START.plusMillis(2));
        keys.addKey(crm.application().id(), new ApplicationRepository.NewKey("Donation form",
                Set.of(Scope.DONORS_WRITE), KeyHash.of(KEYS.get(4)), Optional.of(START.plusSeconds(3_600))),
                RepositoryWrites.TESTER, START.plusMillis(3));
        Caller mailing = TestApplications.create(keys, "Mailing tool, retired", KEYS.get(3),
                START.plusSeconds(86_400).plusNanos(1_000));
        keys.revoke(mailing.key(), RepositoryWrites.TESTER, START.plusSeconds(86_401));
        List<Application> applications = List.of(forderverein, crm.application(), mailing.application());
        addDonors(database, applications, 0, donors);
        return database.applications().list();
    }

    /** Adds donors numbered {@code from} (inclusive) to {@code to} (exclusive), spread over the applications. */
    public static void addDonors(SqlDatabase database, List<Application> applications, int from, int to) {
        for (int n = from; n < to; n++) {
            int i = n;
            ApplicationId owner = applications.get(i % applications.size()).id();
            Instant created = createdAt(i);
            long id = new RepositoryWrites(database.donors()).insert(owner, details(i), created).id();
            if (i % 7 == 0) {
                new RepositoryWrites(database.donors()).modify(owner, id, ExpectedVersion.ANY, d -> changed(d, i),
                        created.plus(Duration.ofDays(i)));
            }
        }
    }

    /** Distinct instants to the microsecond, years apart for large {@code i}. */
    public static Instant createdAt(int i) {
        return START.plus(Duration.ofSeconds(i * 3_607L)).plusNanos(i * 1_001_000L % 1_000_000_000L);
    }

    /** Details that vary with {@code i}: both types, several scripts, nulls, both flags, sometimes long notes. */
    public static DonorDetails details(int i) {
        boolean organization = i % 4 == 3;
        String suffix = " " + i;
        Map<DonorField, Object> fields = new EnumMap<>(DonorField.class);
        fields.put(DonorField.TYPE, organization ? DonorType.ORGANIZATION : DonorType.INDIVIDUAL);
        fields.put(DonorField.FIRST_NAME, organization ? null
                : List.of("Zoë", "山田", "Ådne", "Nnamdi", "Олена").get(i % 5) + suffix);
        fields.put(DonorField.LAST_NAME, organization ? null
                : List.of("Lovelace", "太郎", "Ørsted", "O'Brien-Smith", "Шевченко").get(i % 5));
        fields.put(DonorField.ORGANIZATION_NAME, organization ? "Ünïcode Trust 🌍 慈善" + suffix : null);
        fields.put(DonorField.EMAIL, i % 3 == 0 ? null : "Donor." + i + "@Example.org");
        fields.put(DonorField.PHONE, i % 2 == 0 ? "+44 20 7946 " + i : null);
        fields.put(DonorField.ADDRESS_LINE1, "1 Straße des 17. Juni");
        fields.put(DonorField.ADDRESS_LINE2, i % 5 == 0 ? "Flat 2 / 二号室" : null);
        fields.put(DonorField.CITY, i % 6 == 0 ? null : "Zürich");
        fields.put(DonorField.POSTAL_CODE, i % 2 == 0 ? "SW1A 1AA" : null);
        fields.put(DonorField.COUNTRY, i % 3 == 0 ? "GB" : "CH");
        fields.put(DonorField.EXTERNAL_ID, i % 4 == 0 ? null : "crm-" + i + " 𝕏");
        fields.put(DonorField.EMAIL_OPT_OUT, i % 2 == 1);
        fields.put(DonorField.DO_NOT_CONTACT, i % 5 == 1);
        fields.put(DonorField.NOTES, i % 10 == 0 ? "Line one\r\nline two\ttabbed 👩‍👩‍👧 " + "n".repeat(2_000) : null);
        return DonorDetails.DEFAULTS.with(fields);
    }

    private static DonorDetails changed(DonorDetails details, int i) {
        Map<DonorField, Object> fields = new EnumMap<>(DonorField.class);
        fields.put(DonorField.CITY, "Reykjavík");
        fields.put(DonorField.REGION, "Höfuðborgarsvæðið");
        fields.put(DonorField.COUNTRY, "IS");
        fields.put(DonorField.EMAIL_OPT_OUT, !details.flag(DonorField.EMAIL_OPT_OUT));
        fields.put(DonorField.NOTES, "modified " + i);
        return details.with(fields);
    }
}
