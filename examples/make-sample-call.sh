#!/usr/bin/env bash
# Regenerates examples/sample-call.wav: a short two-party call, 8 kHz stereo PCM, agent on the left channel,
# caller on the right, both spoken by festival's US English HTS voice (the tests' voice; espeak-ng's is recognized
# too poorly at 8 kHz to make a readable sample). Needs Debian's festival festvox-us-slt-hts ffmpeg (`./run test`
# installs them).
# The caller gives a name (John Smith) and a card number (a test number, 4111 1111 1111 1111): what the README's
# quick start redacts. Output is deterministic for a given festival version.
set -euo pipefail
cd "$(dirname "$0")"
out=${1:-sample-call.wav}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }

# channel (0 agent, 1 caller) | text
turns=(
  "0|thank you for calling acme bank. may I have your name please?"
  "1|yes. my name is john smith."
  "0|thank you mister smith. and the card number please?"
  "1|sure. my card number is four one one one, one one one one, one one one one, one one one one."
  "0|thank you. that payment is done. goodbye."
)

: >"$work/left.txt"
: >"$work/right.txt"
silence() { ff -f lavfi -i "anullsrc=r=8000:cl=mono" -t "$2" -c:a pcm_s16le "$1"; }
silence "$work/gap.wav" 0.6
i=0
for turn in "${turns[@]}"; do
  channel=${turn%%|*}
  text=${turn#*|}
  clip="$work/turn$i.wav"
  printf '%s' "$text" >"$work/turn$i.txt"
  text2wave -eval '(voice_cmu_us_slt_arctic_hts)' "$work/turn$i.txt" -o "$work/raw$i.wav"
  ff -i "$work/raw$i.wav" -ar 8000 -ac 1 -c:a pcm_s16le "$clip"
  length=$(ffprobe -v error -show_entries format=duration -of default=nw=1:nk=1 "$clip")
  silence "$work/quiet$i.wav" "$length"
  if [ "$channel" = 0 ]; then
    printf "file '%s'\nfile '%s'\n" "$clip" "$work/gap.wav" >>"$work/left.txt"
    printf "file '%s'\nfile '%s'\n" "$work/quiet$i.wav" "$work/gap.wav" >>"$work/right.txt"
  else
    printf "file '%s'\nfile '%s'\n" "$work/quiet$i.wav" "$work/gap.wav" >>"$work/left.txt"
    printf "file '%s'\nfile '%s'\n" "$clip" "$work/gap.wav" >>"$work/right.txt"
  fi
  i=$((i + 1))
done
ff -f concat -safe 0 -i "$work/left.txt" -c:a pcm_s16le "$work/left.wav"
ff -f concat -safe 0 -i "$work/right.txt" -c:a pcm_s16le "$work/right.wav"
ff -i "$work/left.wav" -i "$work/right.wav" \
  -filter_complex '[0:a][1:a]join=inputs=2:channel_layout=stereo[a]' -map '[a]' -ar 8000 -c:a pcm_s16le \
  -fflags +bitexact -flags:a +bitexact "$out"
echo "wrote examples/$out ($(ffprobe -v error -show_entries format=duration -of default=nw=1:nk=1 "$out") s)" >&2
