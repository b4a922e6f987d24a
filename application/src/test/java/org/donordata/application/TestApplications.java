package org.donordata.application;

import java.time.Instant;
import java.util.Optional;

/** Applications as tests store them: with a key named default holding every scope, made of a text the test knows. */
public final class TestApplications {

    private TestApplications() {
    }

    public static Caller create(ApplicationRepository applications, String name, String key, Instant at) {
        return applications.create(name, new ApplicationRepository.NewKey(ApiKey.DEFAULT_NAME, Scope.all(),
                KeyHash.of(key), Optional.empty()), RepositoryWrites.TESTER, at);
    }
}
