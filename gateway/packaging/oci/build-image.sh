#!/usr/bin/env bash
# Builds the cellgate OCI image without a container daemon or a registry: a Java runtime cut
# from Temurin 25 by jlink, the gateway distribution, the few shared libraries they link against
# (copied from this host), and nothing else ("from scratch": no base image, no shell, no package
# manager). umoci writes the image as an OCI layout directory and an oci-archive tarball.
#
#   bash gateway/packaging/oci/build-image.sh [--tag TAG]
#
# Input:  gateway/target/ (mvn -o -pl gateway -am package -DskipTests), CELLGATE_DIST to override.
# Output: gateway/packaging/oci/target/cellgate-oci/ (OCI layout, tag TAG, default the project version)
#         gateway/packaging/oci/target/cellgate-<TAG>.oci.tar (the same, as one file)
# Needs:  jlink (JAVA_HOME, default Temurin 25), umoci (Debian: apt-get install umoci), ldd, tar.
# Layout and how to load or run it: gateway/packaging/oci/README.md.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
DIST="${CELLGATE_DIST:-$ROOT/gateway/target}"
OUT="$ROOT/gateway/packaging/oci/target"
TAG="$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' "$ROOT/pom.xml" | head -1)"
while (($#)); do
  case "$1" in
    --tag) TAG="$2"; shift 2 ;;
    *) echo "build-image: unknown argument '$1' (usage: build-image.sh [--tag TAG])" >&2; exit 2 ;;
  esac
done
UID_GID=10001

# The JDK modules the node uses, found with
#   jdeps --ignore-missing-deps --multi-release 25 --print-module-deps JAR   (each jar without a module-info)
#   jar --describe-module --file JAR --release 25                            (the "requires" of each module jar)
# over gateway.jar, lib/, lib/jvmci/, plugins/ and optional-plugins/ (gateway/packaging/oci/README.md has the output).
# Added for what no class file names: jdk.internal.vm.ci (JVMCI, required by lib/jvmci's Graal
# compiler: without it the launcher cannot relaunch with the JIT and JavaScript runs interpreted),
# jdk.zipfs (the zip file system provider, for plugin jars), jdk.crypto.cryptoki is not needed
# (TLS uses java.base's providers), jdk.jcmd (jcmd/jstack for an operator in the pod).
MODULES=java.base,java.compiler,java.desktop,java.logging,java.management,java.naming,java.security.jgss,java.sql,java.sql.rowset,java.xml,jdk.internal.vm.ci,jdk.jfr,jdk.management,jdk.unsupported,jdk.zipfs,jdk.jcmd

die() { echo "build-image: $*" >&2; exit 1; }
[[ -x "$JAVA_HOME/bin/jlink" ]] || die "no jlink in $JAVA_HOME (set JAVA_HOME to a Temurin 25 JDK)"
command -v umoci >/dev/null || die "umoci is not installed (Debian: apt-get install umoci)"
[[ -f "$DIST/gateway.jar" && -d "$DIST/lib" && -d "$DIST/plugins" ]] \
  || die "no distribution in $DIST: build it with mvn -o -pl gateway -am package -DskipTests"
t0=$(date +%s)

rm -rf "$OUT"
ROOTFS="$OUT/rootfs"
mkdir -p "$ROOTFS"/{opt/cellgate,etc/cellgate,tmp,var/lib/cellgate}

echo "build-image: jlink $MODULES"
"$JAVA_HOME/bin/jlink" --add-modules "$MODULES" --strip-debug --no-man-pages --no-header-files \
  --compress=zip-6 --output "$ROOTFS/opt/java"

# java.desktop is required (java.beans), but the node is headless: drop the libraries that would
# need X11 and ALSA, which the image does not have (AWT runs headless without them).
rm -f "$ROOTFS"/opt/java/lib/{libawt_xawt,libjawt,libjsound,libsplashscreen}.so

echo "build-image: distribution from $DIST"
cp "$DIST/gateway.jar" "$ROOTFS/opt/cellgate/"
cp -r "$DIST/lib" "$DIST/plugins" "$ROOTFS/opt/cellgate/"
[[ -d "$DIST/optional-plugins" ]] && cp -r "$DIST/optional-plugins" "$ROOTFS/opt/cellgate/"

# Shared libraries: whatever the runtime's binaries and the native libraries inside the jars
# (sqlite-jdbc, Truffle's attach library: unpacked to /tmp at run time) link against, resolved by
# this host's loader. libgcc_s is loaded by glibc itself (thread cancellation), so ldd never lists it.
NATIVE="$OUT/native-in-jars"
mkdir -p "$NATIVE"
(cd "$NATIVE" && unzip -q -o "$DIST"/lib/sqlite-jdbc-*.jar 'org/sqlite/native/Linux/x86_64/*' \
  && unzip -q -o "$DIST"/lib/truffle-api-*.jar 'META-INF/resources/engine/libtruffleattach/linux/amd64/*')
libs=$( { find "$ROOTFS/opt/java" "$NATIVE" -type f \( -name '*.so' -o -path '*/bin/*' \) -print0 \
          | xargs -0 ldd 2>/dev/null | awk '/=> \//{print $3} /^\s*\/[^ ]+ \(/{print $1}'
          ldconfig -p | awk '/libgcc_s.so.1 .*x86-64/{print $NF; exit}'; } | sort -u)
for lib in $libs; do
  case "$lib" in "$ROOTFS"/*|"$NATIVE"/*) continue ;; esac # the runtime's own libraries
  mkdir -p "$ROOTFS$(dirname "$lib")"
  cp -L "$lib" "$ROOTFS$lib"
done
# The ELF interpreter is named by its /lib64 path in every binary.
mkdir -p "$ROOTFS/lib64"
cp -L /lib64/ld-linux-x86-64.so.2 "$ROOTFS/lib64/"

# Users (the JVM looks its user up for user.home) and name resolution (glibc reads nsswitch.conf;
# files and dns are built into glibc >= 2.34, so no libnss module is needed).
printf 'root:x:0:0:root:/root:/sbin/nologin\ncellgate:x:%s:%s:cellgate:/var/lib/cellgate:/sbin/nologin\n' $UID_GID $UID_GID > "$ROOTFS/etc/passwd"
printf 'root:x:0:\ncellgate:x:%s:\n' $UID_GID > "$ROOTFS/etc/group"
printf 'hosts: files dns\n' > "$ROOTFS/etc/nsswitch.conf"
# The default configuration: listen on every interface of the container (the node's own default
# is loopback, for a laptop). Mount your node.json over /etc/cellgate (k8s/configmap.yaml).
cp "$ROOT/gateway/packaging/oci/node.json" "$ROOTFS/etc/cellgate/node.json"
chmod 1777 "$ROOTFS/tmp"
chown -R $UID_GID:$UID_GID "$ROOTFS/var/lib/cellgate" 2>/dev/null || echo "build-image: not root: /var/lib/cellgate stays owned by $(id -u)"
chmod 0750 "$ROOTFS/var/lib/cellgate"

echo "build-image: umoci image cellgate:$TAG"
LAYOUT="$OUT/cellgate-oci"
rootless=(); [[ $(id -u) -eq 0 ]] || rootless=(--rootless)
umoci init --layout "$LAYOUT"
umoci new --image "$LAYOUT:$TAG"
umoci unpack "${rootless[@]}" --image "$LAYOUT:$TAG" "$OUT/bundle"
rm -rf "$OUT/bundle/rootfs"
mv "$ROOTFS" "$OUT/bundle/rootfs"
umoci repack --image "$LAYOUT:$TAG" "$OUT/bundle"
umoci config --image "$LAYOUT:$TAG" \
  --config.entrypoint /opt/java/bin/java --config.entrypoint -jar --config.entrypoint /opt/cellgate/gateway.jar \
  --config.cmd -conf --config.cmd /etc/cellgate/node.json \
  --config.user "$UID_GID:$UID_GID" --config.workingdir /var/lib/cellgate \
  --config.env PATH=/opt/java/bin --config.env JAVA_HOME=/opt/java \
  --config.exposedports 8080/tcp --config.exposedports 9090/tcp \
  --config.volume /var/lib/cellgate --config.stopsignal SIGTERM \
  --config.label org.opencontainers.image.title=cellgate \
  --config.label org.opencontainers.image.version="$TAG" \
  --config.label org.opencontainers.image.description="cellgate node: Workers and Durable Objects on the JVM" \
  --author cellgate --os linux --architecture amd64 \
  --history.created_by "gateway/packaging/oci/build-image.sh"
umoci gc --layout "$LAYOUT"
tar -C "$LAYOUT" -cf "$OUT/cellgate-$TAG.oci.tar" .
mv "$OUT/bundle/rootfs" "$OUT/rootfs" # kept for inspection (and the smoke test); not part of the image files
rm -rf "$OUT/bundle" "$NATIVE"

echo "build-image: done in $(( $(date +%s) - t0 )) s"
echo "build-image: $LAYOUT ($(du -sh "$LAYOUT" | cut -f1)), $OUT/cellgate-$TAG.oci.tar ($(du -h "$OUT/cellgate-$TAG.oci.tar" | cut -f1))"
echo "build-image: unpacked $(du -sh "$OUT/rootfs" | cut -f1): $(cd "$OUT/rootfs" && du -sh opt/java opt/cellgate lib lib64 2>/dev/null | tr '\t' ' ' | paste -sd, -)"
umoci stat --image "$LAYOUT:$TAG" | tail -n +1
