#!/usr/bin/env bash
# Builds the telephone-band adaptation of the bundled PocketSphinx en-us model: a global MLLR transform
# (`-mllr FILE`) estimated with Debian's sphinxtrain (`bw` then `mllr_solve`) on speech passed through a
# telephone channel (300-3400 Hz band-pass, 8 kHz mu-law, back to 16 kHz). The speech is made here, from Debian
# packages alone: the project's own sentences (src/engine/adaptation/sentences.txt) spoken by festival's US
# English HTS voice (festvox-us-slt-hts), plus the transcribed read speech of pocketsphinx-testdata. Measured
# recipe and figures: ../shared/STACK.md, "Speech"; eval/telephony.ts.
#
# Output: $SCRUBLINE_MODELS_DIR/telephony/en-us/ (default models/telephony/en-us)
#   mllr_matrix     the transform (the registry's en-us:telephony model = en-us:wideband + this)
#   manifest.json   inputs hash, build seconds, utterances, audio seconds
#   build.log       the tools' output of the last build
#   unavailable.json  written instead when the build cannot run (reason), read by /asr/status
#
# Deterministic (same inputs, same transform: sorted inputs, fixed sentence order, no randomness), idempotent
# and cached: it does nothing when manifest.json holds the hash of the current inputs (this script, the
# sentences, the acoustic model, the dictionary, the testdata and the package versions). SCRUBLINE_TELEPHONY_FORCE=1
# rebuilds. A missing package or a failing tool is never fatal: it exits 0 after writing unavailable.json, and the
# service runs on the wideband model, saying why.
#
# Environment: SCRUBLINE_MODELS_DIR, SCRUBLINE_SPHINXTRAIN_BIN (directory of bw and mllr_solve, default
# /usr/lib/sphinxtrain), SCRUBLINE_BUILD_JOBS (parallel processes, default nproc).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SELF=$ROOT/scripts/build-telephony-model.sh
export LC_ALL=C

MODELS_DIR=${SCRUBLINE_MODELS_DIR:-$ROOT/models}
DEST=$MODELS_DIR/telephony/en-us
ST_BIN=${SCRUBLINE_SPHINXTRAIN_BIN:-/usr/lib/sphinxtrain}
SENTENCES=$ROOT/src/engine/adaptation/sentences.txt
TESTDATA=/usr/share/pocketsphinx/test/data
JOBS=${SCRUBLINE_BUILD_JOBS:-$(nproc 2>/dev/null || echo 2)}
VOICE=voice_cmu_us_slt_arctic_hts
START=$(date +%s.%N)

say() { printf '\033[1m[scrubline]\033[0m %s\n' "$*" >&2; }
step() { say "  $1 ($(awk -v s="$START" -v e="$(date +%s.%N)" 'BEGIN {printf "%.1f", e - s}')s)"; }

unavailable() {
  mkdir -p "$DEST"
  rm -f "$DEST/mllr_matrix" "$DEST/manifest.json"
  python3 -c 'import json,sys; print(json.dumps({"state": "unavailable", "reason": sys.argv[1]}))' "$1" > "$DEST/unavailable.json" 2>/dev/null \
    || printf '{"state":"unavailable","reason":"%s"}\n' "${1//\"/\'}" > "$DEST/unavailable.json"
  say "telephone-band adaptation not built: $1 (the service uses the wideband model)"
  exit 0
}

# --- the acoustic model, language files and tools -------------------------------------------------------------
HMM=""
for d in /usr/share/pocketsphinx/model/en-us/en-us "$MODELS_DIR/pocketsphinx/en-us/en-us"; do
  if [ -s "$d/mdef" ] && [ -s "$d/sendump" ] && [ -s "$d/means" ]; then HMM=$d; break; fi
done
[ -n "$HMM" ] || unavailable "no en-us acoustic model (Debian package pocketsphinx-en-us)"
DICT=$MODELS_DIR/pocketsphinx/en-us/cmudict-en-us.dict
[ -s "$DICT" ] || DICT=/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict
[ -s "$DICT" ] || unavailable "no en-us dictionary (Debian package pocketsphinx-en-us)"

for tool in "$ST_BIN/bw" "$ST_BIN/mllr_solve"; do
  [ -x "$tool" ] || unavailable "$tool not found (Debian package sphinxtrain; or SCRUBLINE_SPHINXTRAIN_BIN)"
done
command -v sphinx_fe >/dev/null || unavailable "sphinx_fe not found (Debian package sphinxbase-utils)"
command -v pocketsphinx_mdef_convert >/dev/null || unavailable "pocketsphinx_mdef_convert not found (Debian package pocketsphinx)"
command -v festival >/dev/null || unavailable "festival not found (Debian package festival)"
[ -d /usr/share/festival/voices/us/cmu_us_slt_arctic_hts ] || unavailable "festival's HTS voice not found (Debian package festvox-us-slt-hts)"
command -v ffmpeg >/dev/null || unavailable "ffmpeg not found (Debian package ffmpeg)"
command -v python3 >/dev/null || unavailable "python3 not found (Debian package python3)"
[ -s "$SENTENCES" ] || unavailable "$SENTENCES is missing"
HAVE_TESTDATA=0
[ -s "$TESTDATA/librivox/transcription" ] && HAVE_TESTDATA=1

# --- cache: the hash of every input ---------------------------------------------------------------------------
pkgver() { dpkg-query -W -f='${Package}=${Version} ' "$@" 2>/dev/null; }
HASH=$({
  echo "recipe 1"
  sha256sum "$SELF" "$SENTENCES" "$HMM"/{mdef,means,variances,sendump,transition_matrices,noisedict,feat.params} "$DICT" | cut -d' ' -f1
  [ "$HAVE_TESTDATA" = 1 ] && sha256sum "$TESTDATA"/librivox/*.wav "$TESTDATA"/cards/*.wav | cut -d' ' -f1
  pkgver sphinxtrain sphinxbase-utils pocketsphinx festival festvox-us-slt-hts pocketsphinx-testdata ffmpeg
} | sha256sum | cut -c1-16)

if [ "${SCRUBLINE_TELEPHONY_FORCE:-}" != 1 ] && [ -s "$DEST/mllr_matrix" ] && grep -q "\"inputsHash\": \"$HASH\"" "$DEST/manifest.json" 2>/dev/null; then
  say "telephone-band adaptation up to date ($DEST, inputs $HASH)"
  exit 0
fi

say "building the telephone-band adaptation (inputs $HASH, $JOBS processes)"
mkdir -p "$MODELS_DIR"
WORK=$(mktemp -d "$MODELS_DIR/.telephony.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
LOG=$WORK/build.log
mkdir -p "$WORK"/{syn,tel,mfc,hmm,acc}

fail() {
  mkdir -p "$DEST"
  cp "$LOG" "$DEST/build.log" 2>/dev/null
  unavailable "$1 (see $DEST/build.log)"
}

# --- 1. speech: the sentences spoken by festival (one festival process per share of them) ----------------------
grep -v '^#' "$SENTENCES" | sed 's/[^a-z0-9 '"'"']//g; s/  */ /g; s/^ //; s/ $//' | grep -v '^$' > "$WORK/sentences"
N=$(wc -l < "$WORK/sentences")
: > "$WORK/transcription"
: > "$WORK/fileids"
i=0
while IFS= read -r line; do
  i=$((i + 1))
  id=$(printf 'syn%04d' "$i")
  printf '<s> %s </s> (%s)\n' "$line" "$id" >> "$WORK/transcription"
  echo "$id" >> "$WORK/fileids"
  printf '(utt.save.wave (utt.synth (Utterance Text "%s")) "%s/syn/%s.wav" (quote riff))\n' "$line" "$WORK" "$id" >> "$WORK/syn.$(( (i - 1) % JOBS )).scm"
done < "$WORK/sentences"
for f in "$WORK"/syn.*.scm; do
  ( echo "($VOICE)"; cat "$f" ) > "$f.tmp" && mv "$f.tmp" "$f"
done
printf '%s\n' "$WORK"/syn.*.scm | xargs -P "$JOBS" -n 1 festival -b >> "$LOG" 2>&1 || fail "festival failed"
[ "$(ls "$WORK/syn" | wc -l)" -eq "$N" ] || fail "festival spoke $(ls "$WORK/syn" | wc -l) of $N sentences"

step "spoke $N sentences"
# --- 2. pocketsphinx-testdata's read speech with its transcriptions -------------------------------------------
if [ "$HAVE_TESTDATA" = 1 ]; then
  sed -E 's/^<s> *//; s/ *<\/s> *\((.*)\)$/\t\1/' "$TESTDATA/librivox/transcription" | while IFS=$'\t' read -r text id; do
    cp "$TESTDATA/librivox/$id.wav" "$WORK/syn/lv-$id.wav"
    printf '<s> %s </s> (lv-%s)\n' "$text" "$id" >> "$WORK/transcription"; echo "lv-$id" >> "$WORK/fileids"
  done
  sed -E 's/^<s> *//; s/ *<\/s> *\((.*)\)$/\t\1/' "$TESTDATA/cards/cards.transcription" | while IFS=$'\t' read -r text id; do
    cp "$TESTDATA/cards/$id.wav" "$WORK/syn/cards-$id.wav"
    printf '<s> %s </s> (cards-%s)\n' "$(echo $text)" "$id" >> "$WORK/transcription"; echo "cards-$id" >> "$WORK/fileids"
  done
else
  say "pocketsphinx-testdata not installed: adapting on the synthetic sentences alone"
fi

# --- 3. the telephone channel: band-pass, 8 kHz mu-law, back to 16 kHz mono 16-bit ----------------------------
# ffmpeg takes a batch of files per run (many inputs, one output each): starting ~750 processes cost 40 s.
telephone() {
  local work=$1; shift
  local a=() b=() k=0
  for id in "$@"; do
    a+=(-i "$work/syn/$id.wav"); b+=(-i "$work/tel/$id.8k.wav")
    k=$((k + 1))
  done
  local oa=() ob=() j=0
  for id in "$@"; do
    oa+=(-map "$j:a" -af 'highpass=f=300,lowpass=f=3400' -ac 1 -ar 8000 -c:a pcm_mulaw -bitexact "$work/tel/$id.8k.wav")
    ob+=(-map "$j:a" -ar 16000 -c:a pcm_s16le -bitexact "$work/tel/$id.wav")
    j=$((j + 1))
  done
  ffmpeg -nostdin -v error -y "${a[@]}" "${oa[@]}" && ffmpeg -nostdin -v error -y "${b[@]}" "${ob[@]}" && for id in "$@"; do rm -f "$work/tel/$id.8k.wav"; done
}
export -f telephone
xargs -P "$JOBS" -n 48 bash -c 'telephone "$@"' _ "$WORK" < "$WORK/fileids" >> "$LOG" 2>&1 \
  || fail "ffmpeg failed on the telephone channel"

step "telephone channel"
# --- 4. features, statistics, transform -----------------------------------------------------------------------
sphinx_fe -argfile "$HMM/feat.params" -samprate 16000 -c "$WORK/fileids" -di "$WORK/tel" -do "$WORK/mfc" \
  -ei wav -eo mfc -mswav yes -remove_silence no >> "$LOG" 2>&1 || fail "sphinx_fe failed"

step "features"
cp "$HMM"/{means,variances,transition_matrices,noisedict,feat.params} "$WORK/hmm/"
pocketsphinx_mdef_convert -text "$HMM/mdef" "$WORK/hmm/mdef.txt" >> "$LOG" 2>&1 || fail "pocketsphinx_mdef_convert failed"
# bw needs mixture_weights; Debian's model ships only their 8-bit quantized form (sendump). Rebuilt here:
# p = 1.0001 ** -(q << 10), renormalised per senone and stream (mk_s2sendump -pocketsphinx yes turns it back).
python3 - "$HMM/sendump" "$WORK/hmm/mixture_weights" >> "$LOG" 2>&1 <<'PY' || fail "could not rebuild mixture_weights from sendump"
import math, struct, sys
data = open(sys.argv[1], 'rb').read()
o = 0
n_feat = n_clust = 0
while True:
    (n,) = struct.unpack_from('<i', data, o); o += 4
    if n == 0:
        break
    s = data[o:o + n].rstrip(b'\0').decode('latin-1'); o += n
    if s.startswith('feature_count '): n_feat = int(s.split()[1])
    if s.startswith('cluster_count '): n_clust = int(s.split()[1])
if n_clust != 0:
    sys.exit('clustered sendump not supported')
n_den, n_sen = struct.unpack_from('<ii', data, o); o += 8
q = data[o:o + n_feat * n_den * n_sen]
assert len(q) == n_feat * n_den * n_sen, 'truncated sendump'
table = [math.pow(1.0001, -(v << 10)) for v in range(256)]
out = [0.0] * (n_sen * n_feat * n_den)
for f in range(n_feat):
    for d in range(n_den):
        base = (f * n_den + d) * n_sen
        row = q[base:base + n_sen]
        for s in range(n_sen):
            out[(s * n_feat + f) * n_den + d] = table[row[s]]
for s in range(n_sen):
    for f in range(n_feat):
        b = (s * n_feat + f) * n_den
        tot = sum(out[b:b + n_den])
        for d in range(n_den):
            out[b + d] /= tot
hdr = b's3\nversion 1.0\n'
pad = (4 - (len(hdr) + len(b'endhdr\n')) % 4) % 4
with open(sys.argv[2], 'wb') as fh:
    fh.write(hdr + b' ' * pad + b'endhdr\n')
    fh.write(struct.pack('<iIIII', 0x11223344, n_sen, n_feat, n_den, len(out)))
    fh.write(struct.pack('<%df' % len(out), *out))
print('mixture_weights: %d senones x %d streams x %d densities' % (n_sen, n_feat, n_den))
PY

CMN=$(sed -n 's/^-cmn //p' "$HMM/feat.params"); CMN=${CMN:-batch}
SVSPEC=$(sed -n 's/^-svspec //p' "$HMM/feat.params")
FEAT=$(sed -n 's/^-feat //p' "$HMM/feat.params")
# bw in $JOBS parts (-part/-npart), one statistics directory each; mllr_solve sums them.
ACCS=()
for part in $(seq 1 "$JOBS"); do
  mkdir -p "$WORK/acc/$part"; ACCS+=("$WORK/acc/$part")
  "$ST_BIN/bw" -hmmdir "$WORK/hmm" -moddeffn "$WORK/hmm/mdef.txt" -ts2cbfn .ptm. -feat "${FEAT:-1s_c_d_dd}" \
    ${SVSPEC:+-svspec "$SVSPEC"} -cmn "$CMN" -agc none -dictfn "$DICT" -fdictfn "$HMM/noisedict" \
    -ctlfn "$WORK/fileids" -part "$part" -npart "$JOBS" -lsnfn "$WORK/transcription" -cepdir "$WORK/mfc" -cepext mfc \
    -accumdir "$WORK/acc/$part" > "$WORK/bw.$part.log" 2>&1 &
done
BW_OK=1
for job in $(jobs -p); do wait "$job" || BW_OK=0; done
cat "$WORK"/bw.*.log >> "$LOG"
[ "$BW_OK" = 1 ] || fail "bw failed"
step "bw"
"$ST_BIN/mllr_solve" -meanfn "$WORK/hmm/means" -varfn "$WORK/hmm/variances" -outmllrfn "$WORK/mllr_matrix" \
  -accumdir "$(IFS=,; echo "${ACCS[*]}")" >> "$LOG" 2>&1 || fail "mllr_solve failed"
[ -s "$WORK/mllr_matrix" ] || fail "mllr_solve wrote no transform"

# --- 5. install atomically -------------------------------------------------------------------------------------
UTTS=$(wc -l < "$WORK/fileids")
AUDIO=$(find "$WORK/tel" -name '*.wav' -printf '%s\n' | awk '{s += ($1 - 44) / 32000} END {printf "%.1f", s}')
SECONDS_TAKEN=$(awk -v s="$START" -v e="$(date +%s.%N)" 'BEGIN {printf "%.1f", e - s}')
cat > "$WORK/manifest.json" <<JSON
{
  "state": "built",
  "inputsHash": "$HASH",
  "recipe": "global MLLR (sphinxtrain bw + mllr_solve); festival cmu_us_slt_arctic_hts sentences + pocketsphinx-testdata read speech; 300-3400 Hz, 8 kHz mu-law, 16 kHz",
  "acousticModel": "$HMM",
  "utterances": $UTTS,
  "audioSeconds": $AUDIO,
  "buildSeconds": $SECONDS_TAKEN,
  "builtAt": "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
}
JSON
mkdir -p "$DEST"
cp "$LOG" "$DEST/build.log"
mv "$WORK/mllr_matrix" "$DEST/mllr_matrix.tmp" && mv "$DEST/mllr_matrix.tmp" "$DEST/mllr_matrix"
mv "$WORK/manifest.json" "$DEST/manifest.json"
rm -f "$DEST/unavailable.json"
say "built the telephone-band adaptation in ${SECONDS_TAKEN}s: $UTTS utterances, ${AUDIO}s of speech → $DEST/mllr_matrix"
