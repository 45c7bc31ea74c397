#!/usr/bin/env bash
# Builds the self-contained STARK bundle for machines without clang libraries
# (the GPU machine): a static `stark`, clang's resource headers, STARK's CMake
# package and headers, all compressed with zstd, plus unpack.sh. Checks that
# everything carried stays under 48 MiB.
#
#   scripts/build-bundle.sh [OUT_DIR]     (default: .bundle; git-ignored)
#
# On the target: sh OUT_DIR/unpack.sh DEST  ->  DEST/bin/stark, DEST/lib/cmake/STARK, ...
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-.bundle}")
build=build-bundle
limit_mib=48

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTARK_BUILD_TESTS=OFF \
  -DSTARK_STATIC_CLANG=ON -DSTARK_INSTALL_CLANG_RESOURCES=ON
cmake --build "$build" --target stark stark-worker stark_capture
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
cmake --install "$build" --prefix "$stage/prefix" --strip

# Nothing dynamic beyond what Ubuntu 24.04 with the CUDA image has.
echo "build-bundle: dynamic dependencies of stark:"
ldd "$stage/prefix/bin/stark" | sed 's/^/  /'
if ldd "$stage/prefix/bin/stark" | grep -E 'libclang|libLLVM|libz3|libxml2|libicu' >/dev/null; then
  echo "build-bundle: stark still links clang/LLVM or their optional libraries dynamically" >&2
  exit 1
fi

# Shared libraries beyond the base system (libcurl and what it needs) travel in
# lib/stark/deps; unpack.sh points stark at them only where the target lacks one.
deps="$stage/prefix/lib/stark/deps"
mkdir -p "$deps"
ldd "$stage/prefix/bin/stark" | awk '/=> \// {print $3}' | while read -r lib; do
  case $(basename "$lib") in
    libc.so* | libm.so* | libdl.so* | librt.so* | libpthread.so* | libresolv.so* | ld-linux* | libstdc++.so* | \
      libgcc_s.so* | libz.so* | libzstd.so*) ;;
    *) cp -L "$lib" "$deps/" ;;
  esac
done
echo "build-bundle: carried for targets without them: $(ls "$deps" | tr '\n' ' ')"

rm -rf "$out"
mkdir -p "$out"
tar -C "$stage/prefix" -cf - . | zstd -19 -T0 -q -o "$out/stark-prefix.tar.zst"
# The target may lack a zstd command: carry this machine's (it needs only
# libzstd, liblzma, liblz4 and zlib, which Ubuntu's base system has).
cp "$(command -v zstd)" "$out/zstd"
cat > "$out/unpack.sh" <<'UNPACK'
#!/bin/sh
# unpack.sh DEST: unpacks the STARK bundle beside this script into DEST.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:?usage: unpack.sh DEST}
mkdir -p "$dest"
z=zstd
command -v zstd >/dev/null 2>&1 || z="$here/zstd"
"$z" -d -q -c "$here/stark-prefix.tar.zst" | tar -C "$dest" -xf -
# A library this machine lacks (libcurl, say): stark runs through a wrapper
# that adds the bundle's copies, so nothing is installed system-wide.
if ldd "$dest/bin/stark" 2>/dev/null | grep -q 'not found'; then
  echo "this machine lacks: $(ldd "$dest/bin/stark" | awk '/not found/ {print $1}' | tr '\n' ' ')- using the bundle's copies"
  mv "$dest/bin/stark" "$dest/bin/stark.real"
  abs=$(cd "$dest" && pwd)
  printf '#!/bin/sh\nLD_LIBRARY_PATH="%s/lib/stark/deps${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" exec "%s/bin/stark.real" "$@"\n' \
    "$abs" "$abs" >"$dest/bin/stark"
  chmod +x "$dest/bin/stark"
fi
echo "STARK unpacked into $dest (run $dest/bin/stark doctor)"
UNPACK
chmod +x "$out/unpack.sh"

size=$(du -sb "$out" | cut -f1)
raw=$(du -sb "$stage/prefix/bin/stark" | cut -f1)
awk -v raw="$raw" -v size="$size" -v limit="$limit_mib" -v out="$out" 'BEGIN {
  printf "build-bundle: stark %.1f MiB stripped; bundle %.1f MiB compressed (limit %d MiB) in %s\n",
         raw / 1048576, size / 1048576, limit, out }'
if ((size > limit_mib * 1024 * 1024)); then
  echo "build-bundle: the bundle is over ${limit_mib} MiB" >&2
  exit 1
fi
