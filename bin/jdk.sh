# Sourced by the other scripts: finds a JDK 21+ and exports JAVA_HOME, or stops with a clear message.
# Order: an explicit JAVA_HOME, then the JDKs installed under /usr/lib/jvm (newest first), then `java` on PATH.

# A JDK's major version: from its release file, which every JDK build has (asking java itself starts a JVM, some
# 50 ms each time, and every script sources this file); from java where the file is missing.
java_major() {
  local major=
  [ -f "$1/release" ] && major=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" | head -n 1)
  if [ -n "$major" ]; then
    echo "$major"
    return
  fi
  "$1/bin/java" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -n 1
}

pick_jdk() {
  local candidate major
  if [ -n "${JAVA_HOME:-}" ]; then
    major=$(java_major "$JAVA_HOME")
    if [ "${major:-0}" -ge 21 ] && [ -x "$JAVA_HOME/bin/javac" ]; then
      return 0
    fi
    echo "note: JAVA_HOME=$JAVA_HOME is not a JDK 21+ (found ${major:-none}); looking for another" >&2
  fi
  for candidate in $(ls -d /usr/lib/jvm/*/ 2>/dev/null | sort -V -r); do
    candidate=${candidate%/}
    [ -x "$candidate/bin/javac" ] || continue
    major=$(java_major "$candidate")
    if [ "${major:-0}" -ge 21 ]; then
      export JAVA_HOME=$candidate
      return 0
    fi
  done
  if command -v javac >/dev/null 2>&1; then
    candidate=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
    major=$(java_major "$candidate")
    if [ "${major:-0}" -ge 21 ]; then
      export JAVA_HOME=$candidate
      return 0
    fi
  fi
  echo "error: no JDK 21 or newer found. Install one (e.g. a Temurin JDK 21+ under /usr/lib/jvm) or set JAVA_HOME to it." >&2
  return 1
}

pick_jdk || exit 1
export JAVA_HOME
export PATH="$JAVA_HOME/bin:$PATH"
# Maven 3.8's bundled Guava warns on JDK 24+ unless its Unsafe memory access is allowed explicitly;
# older JDKs do not know the flag.
if [ "$(java_major "$JAVA_HOME")" -ge 24 ]; then
  case "${MAVEN_OPTS:-}" in
    *sun-misc-unsafe-memory-access*) ;;
    *) export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow" ;;
  esac
fi
