#!/bin/bash
# One member of the single-node swarm's Hazelcast cluster. Every member shares the host's network (one
# node: a Hazelcast client connects to every member at the address the members tell it, and 127.0.0.1
# with a port of each member's own is one that both the host and every task reach), so the member
# listens on 127.0.0.1:MEMBER_PORT and joins over TCP the members at MEMBERS (host:port, comma-separated);
# HEAP (e.g. 512m). As in the full-size stack, the cluster's name is the stack's secret (the open-source
# edition has no passwords: a client must know the name), and the vendor's map defaults stay (one
# synchronous backup, in memory only). The member logs nothing: Hazelcast puts the cluster's name into
# every line it logs.
set -euo pipefail
: "${MEMBER_PORT:?}" "${MEMBERS:?}" "${HEAP:=512m}"
secret=/run/secrets/streambench_db_password
[ -r "$secret" ] || { echo "hazelcast-entrypoint.sh: no secret at $secret" >&2; exit 2; }

config=/tmp/hazelcast.yaml # the task's own container: one member each
install -m 600 /dev/null "$config"
members=""
for member in ${MEMBERS//,/ }; do members="$members, \"$member\""; done
{
  # YAML single quotes: a quote inside is written twice
  printf "hazelcast:\n  cluster-name: '%s'\n" "$(sed "s/'/''/g" "$secret")"
  cat <<YAML
  properties:
    hazelcast.phone.home.enabled: false
    hazelcast.logging.type: none
    hazelcast.socket.bind.any: false
    hazelcast.local.localAddress: 127.0.0.1
  network:
    port: {port: ${MEMBER_PORT}, auto-increment: false}
    interfaces: {enabled: true, interfaces: ["127.0.0.1"]}
    join:
      multicast: {enabled: false}
      auto-detection: {enabled: false}
      tcp-ip: {enabled: true, member-list: [${members#, }]}
  jet: {enabled: false}
YAML
} > "$config"

classpath="$(sed 's|^|/opt/hazelcast/lib/|' /opt/hazelcast/lib/classpath.txt | paste -sd:)"
exec java "-Xms${HEAP}" "-Xmx${HEAP}" -XX:+ExitOnOutOfMemoryError "-Dhazelcast.config=$config" \
  --add-modules java.se --add-exports java.base/jdk.internal.ref=ALL-UNNAMED \
  --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED \
  --add-opens java.management/sun.management=ALL-UNNAMED --add-opens jdk.management/com.sun.management.internal=ALL-UNNAMED \
  -cp "$classpath" com.hazelcast.core.server.HazelcastMemberStarter
