/**
 * The use cases: {@link org.donordata.application.DonorService} and
 * {@link org.donordata.application.ApplicationService}, and the driven ports they need
 * ({@link org.donordata.application.DonorRepository}, {@link org.donordata.application.ApplicationRepository}),
 * which adapters-sql implements. Depends on the JDK and the domain only.
 */
package org.donordata.application;
