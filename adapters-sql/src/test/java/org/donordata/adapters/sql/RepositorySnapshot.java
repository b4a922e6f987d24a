package org.donordata.adapters.sql;

import java.time.Instant;
import org.donordata.domain.CustomField;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.donordata.application.Application;
import org.donordata.application.AuditRecord;
import org.donordata.application.Caller;
import org.donordata.application.DonorRepository;
import org.donordata.application.KeyHash;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorFilter;

/**
 * Everything the repositories tell about a database, for comparing two field by field: its applications, which
 * application each of the fixture's keys finds (so the key hashes are compared too), every donor, every donor's
 * history (so a copy's chains of trail records are followed too), each application's custom fields and the first
 * records of its audit (its key and field events among them).
 */
public record RepositorySnapshot(List<Application> applications, List<Optional<Caller>> keyLookups,
        List<Donor> donors, List<List<AuditRecord>> histories, List<List<CustomField>> customFields,
        List<List<AuditRecord>> audits) {

    public static RepositorySnapshot of(SqlDatabase database) {
        List<Application> applications = database.applications().list();
        List<Optional<Caller>> keyLookups = DonorFixture.KEYS.stream()
                .map(key -> database.applications().findByKeyHash(KeyHash.of(key)))
                .toList();
        List<List<AuditRecord>> histories = new ArrayList<>();
        List<Donor> donors = new ArrayList<>();
        List<List<CustomField>> customFields = new ArrayList<>();
        List<List<AuditRecord>> audits = new ArrayList<>();
        for (Application application : applications) {
            customFields.add(database.customFields().page(application.id(), 0, CustomField.MAX_PER_APPLICATION));
            audits.add(database.trail().audit(application.id(), Instant.EPOCH, 0, DonorRepository.MAX_ROWS));
            for (Donor donor : database.donors().list(application.id(), DonorFilter.NONE, 0, DonorRepository.MAX_ROWS)) {
                donors.add(donor);
                histories.add(database.trail().history(application.id(), donor.id(), 0, DonorRepository.MAX_ROWS));
            }
        }
        return new RepositorySnapshot(applications, keyLookups, donors, histories, customFields, audits);
    }
}
