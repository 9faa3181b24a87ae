#!/bin/sh
# Joins y4m streams (the shards of one `lamina export`, in shard order) into one: the first stream whole, the
# others without their header line. Every shard of one export has the same header, so the result is the stream
# the unsharded export writes, byte for byte.
#
#   tools/join-y4m.sh OUTPUT.y4m part-0.y4m part-1.y4m ...     (OUTPUT - for stdout)
set -eu
if [ "$#" -lt 2 ]; then
    echo "usage: $0 OUTPUT.y4m PART.y4m..." >&2
    exit 2
fi
out=$1
shift
first=$(head -n 1 "$1")
case $first in
    YUV4MPEG2\ *) ;;
    *) echo "$0: $1 is not a y4m stream" >&2; exit 2 ;;
esac
for part in "$@"; do
    if [ "$(head -n 1 "$part")" != "$first" ]; then
        echo "$0: $part has another header than $1 (a different export?)" >&2
        exit 2
    fi
done
join() {
    cat "$1"
    shift
    for part in "$@"; do tail -n +2 "$part"; done
}
if [ "$out" = - ]; then
    join "$@"
else
    join "$@" > "$out.partial"
    mv "$out.partial" "$out"
fi
