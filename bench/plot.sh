#!/usr/bin/env bash
# Plot GB/s against n from algorithms-bench / cub-bench TSVs: one panel per operation, one line per backend.
# SPDX-License-Identifier: MIT
#
# Usage: bench/plot.sh [-o OUT.png] [-t TITLE] FILE.tsv...
#
# Each panel is one (op, type); its lines are the backends that measured it
# (nv, local, khr, cub, cub-kernel, host, ...), labelled "backend" or
# "backend @ device" when the files hold more than one device. The copy
# bandwidth of each run (OpenCL float4 kernel, cudaMemcpy) is drawn dashed
# in every panel as the ceiling. x: n on a log2 axis; y: GB/s, log scale.
# Needs gnuplot with the pngcairo (or png) terminal; runs where the TSVs
# were copied to, not necessarily on the GPU machine.
set -euo pipefail

out=bench-gbps.png
title="libclwarp algorithms: GB/s vs n"
while getopts "o:t:h" opt; do
	case $opt in
	o) out=$OPTARG ;;
	t) title=$OPTARG ;;
	h) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "Usage: $0 [-o OUT.png] [-t TITLE] FILE.tsv..." >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -eq 0 ]; then
	echo "Usage: $0 [-o OUT.png] [-t TITLE] FILE.tsv..." >&2
	exit 2
fi
command -v gnuplot >/dev/null || { echo "plot.sh: gnuplot not found" >&2; exit 1; }
term=pngcairo
gnuplot -e 'set terminal' 2>&1 | grep -q pngcairo || term=png

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Split into one data file per (op, type, series) and list them.
awk -F'\t' -v dir="$tmp" '
	$1 == "device" || NF < 7 { next }
	{
		dev[$1] = 1
		key = $3 "\t" $4
		if (!(key in seen)) { seen[key] = 1; keys[nk++] = key }
		rows[NR] = $0
	}
	END {
		ndev = 0
		for (d in dev) ndev++
		for (r in rows) {
			split(rows[r], f, "\t")
			label = f[2]
			if (ndev > 1) { d = f[1]; gsub(/"/, "", d); label = f[2] " @ " substr(d, 1, 24) }
			series = (f[3] == "copy") ? "copy\t-" : (f[3] "\t" f[4])
			id = series "\t" label
			if (!(id in fid)) {
				fid[id] = dir "/s" (nf++) ".dat"
				print series "\t" label "\t" fid[id] > (dir "/series.lst")
			}
			print f[5], f[7] > fid[id]
		}
		for (i = 0; i < nk; i++) if (keys[i] !~ /^copy\t/) print keys[i] > (dir "/panels.lst")
	}' "$@"
[ -s "$tmp/panels.lst" ] || { echo "plot.sh: no operation rows in $*" >&2; exit 1; }
for f in "$tmp"/s*.dat; do sort -n -o "$f" "$f"; done

# One colour per backend label, the same in every panel.
declare -A colour=()
i=1
while IFS= read -r label; do
	colour[$label]=$i
	i=$((i + 1))
done < <(cut -f3 "$tmp/series.lst" | sort -u)

panels=$(wc -l <"$tmp/panels.lst")
cols=$(( panels < 3 ? panels : (panels <= 4 ? 2 : (panels <= 9 ? 3 : 4)) ))
rows=$(( (panels + cols - 1) / cols ))
{
	echo "set terminal $term size $((cols * 560)),$((rows * 400 + 60)) font ',9'"
	echo "set output '$out'"
	echo "set termoption noenhanced"
	echo "set multiplot layout $rows,$cols title \"$title\" font ',13'"
	echo "set logscale x 2; set format x '2^%L'; set logscale y; set grid"
	echo "set xlabel 'n (elements)'; set ylabel 'GB/s'"
	echo "set key top left font ',8' samplen 2"
	while IFS=$'\t' read -r op type; do
		plots=()
		while IFS=$'\t' read -r s1 s2 label file; do
			if [ "$s1" = copy ]; then
				plots+=("'$file' using 1:2 with lines dt 2 lw 1.5 lc ${colour[$label]} title 'copy: $label'")
			elif [ "$s1" = "$op" ] && [ "$s2" = "$type" ]; then
				plots+=("'$file' using 1:2 with linespoints pt 7 ps 0.5 lw 2 lc ${colour[$label]} title '$label'")
			fi
		done < <(sort -t$'\t' -k3,3 "$tmp/series.lst")
		echo "set title '$op $type'"
		(IFS=,; echo "plot ${plots[*]}")
	done <"$tmp/panels.lst"
	echo "unset multiplot"
} >"$tmp/plot.gp"
gnuplot "$tmp/plot.gp"
echo "plot.sh: wrote $out ($panels panels)"
