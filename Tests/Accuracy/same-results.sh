#!/usr/bin/env bash
# Whether two builds of the detector give the same results to the bit: the
# proof a refactor owes (issue 54) and the first thing to know of any
# detector change (which crossings moved).
#
#   Tests/Accuracy/same-results.sh OLD_DIR NEW_DIR [CLIPDIR...]
#
# OLD_DIR and NEW_DIR each hold a `ts-gate` and a `gate-accuracy` (copy them
# out of .build/release before and after the change). Both run the rendered
# corpus (`make accuracy`) plain, with --factors and with --stress 8, every
# clip with --verbose; then `ts-gate replay --json` of each Y4M in each
# CLIPDIR (a second-renderer set: `make accuracy-second` leaves them in
# build/second-renderer/*) in both modes, with the clip's truth's gate,
# exposure and readout. Each output is compared with cmp (the corpus's own
# run time left out). Exit 0 when every one is identical.
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
old=$1 new=$2
shift 2
for d in "$old" "$new"; do
    for b in ts-gate gate-accuracy; do
        [ -x "$d/$b" ] || { echo "same-results: $d/$b: no such program" >&2; exit 2; }
    done
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
differ=0
same() {   # label file-old file-new
    if cmp -s "$2" "$3"; then echo "same-results: identical: $1"
    else echo "same-results: DIFFERENT: $1"; diff "$2" "$3" | head -8; differ=1; fi
}
for args in "" "--factors" "--stress 8"; do
    label="gate-accuracy --verbose $args"
    for side in old new; do
        dir=$old; [ $side = new ] && dir=$new
        # shellcheck disable=SC2086
        "$dir/gate-accuracy" --verbose $args | grep -v 'clips, seed' >"$work/$side.accuracy"
    done
    same "$label" "$work/old.accuracy" "$work/new.accuracy"
done
replay_all() {   # bin clipdir out
    : >"$3"
    for clip in "$2"/*.y4m; do
        read -r gate exposure readout < <(python3 -c 'import json, sys
m = json.load(open(sys.argv[1])); print(m["gate"], m["exposure_ms"], m["readout_ms"])' "${clip%.y4m}.json")
        for mode in photo-finish precision; do
            echo "== ${clip##*/} $mode" >>"$3"
            "$1" replay "$clip" --json --mode $mode --gate "$gate" --exposure-ms "$exposure" \
                --readout-ms "$readout" >>"$3" 2>&1 || echo "exit $?" >>"$3"
        done
    done
}
for clips in "$@"; do
    n=$(find "$clips" -maxdepth 1 -name '*.y4m' | wc -l)
    [ "$n" -gt 0 ] || { echo "same-results: $clips: no Y4M clips" >&2; exit 2; }
    replay_all "$old/ts-gate" "$clips" "$work/old.replay"
    replay_all "$new/ts-gate" "$clips" "$work/new.replay"
    same "replay --json of $n clips in $clips ($(grep -c crossingTimeNanos "$work/new.replay") crossings)" \
        "$work/old.replay" "$work/new.replay"
done
exit $differ
