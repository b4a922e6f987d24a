# Sourced by bench/run and bench/backup: a pristine seeded SQLite database of $donors donors at $pristine, made once per
# size, schema and seeder (bench/Seed.java), its api key in $pristine.key. Needs $work, $donors, $java and $libs.
schema=$(cat adapters-sql/src/main/resources/db/migration/sqlite/*.sql adapters-sql/src/main/java/org/donordata/adapters/sql/sqlite/StoredDocuments.java bench/Seed.java | cksum | cut -d' ' -f1)
pristine=$work/pristine-$donors-$schema.db
if [ ! -f "$pristine.done" ]; then
  rm -f "$work"/pristine-"$donors"-*
  echo "Seeding $pristine: $donors donors for the benchmark application, every tenth row for one of 3 others..."
  DONORS_DB_URL=jdbc:sqlite:$pristine "$java" -jar bootstrap/target/donor-service.jar apps create bench \
    | tail -n 1 >"$pristine.key"
  for name in crm website events; do
    DONORS_DB_URL=jdbc:sqlite:$pristine "$java" -jar bootstrap/target/donor-service.jar apps create "$name" >/dev/null
  done
  "$java" --enable-native-access=ALL-UNNAMED -cp "$libs" bench/Seed.java "jdbc:sqlite:$pristine" 1 "$donors" 2 3 4
  touch "$pristine.done"
fi
