# shellcheck shell=bash
# Step bookkeeping for .ci/run, which sources this file: the step headers,
# run_step and the summary, and helpers every step uses (uses .ci/run's
# STEPS).

# --------------------------------------------------------------------------
# Step bookkeeping
# --------------------------------------------------------------------------
declare -A RESULT=()     # step -> PASS | FAIL | SKIP (...)
declare -A SECS=()       # step -> seconds
declare -A PLATFORM=()   # step -> what it ran on, for the summary
ORDER=()
FAILED=0

section() {
	printf '\n==== [%s] %s ====\n' "$(date +%H:%M:%S)" "$*"
}

wanted() {
	[[ " $STEPS " == *" $1 "* ]]
}

# run_step NAME PLATFORM NEEDS FUNCTION: runs FUNCTION in a subshell with
# errexit on (so any failing command inside ends the step), records the
# result and time, and keeps going.  NEEDS is a space-separated list of
# steps that must not have failed or been skipped (when they were wanted).
run_step() {
	local name=$1 platform=$2 needs=$3 fn=$4
	wanted "$name" || return 0
	ORDER+=("$name")
	PLATFORM[$name]=$platform
	SECS[$name]=0
	local dep
	for dep in $needs; do
		if wanted "$dep" && [[ ${RESULT[$dep]:-} != PASS ]]; then
			section "$name: SKIPPED ($dep did not pass)"
			RESULT[$name]="SKIP ($dep did not pass)"
			FAILED=1
			return 0
		fi
	done
	section "$name ($platform)"
	local start=$SECONDS rc
	# errexit is ignored inside anything tested by if/&&/||, so the step
	# must run as a plain command: switch errexit off around it only.
	set +e
	(set -e; "$fn")
	rc=$?
	set -e
	SECS[$name]=$((SECONDS - start))
	if ((rc == 0)); then
		RESULT[$name]=PASS
	else
		RESULT[$name]="FAIL (exit $rc)"
		FAILED=1
		section "$name FAILED (exit $rc)"
	fi
}

print_summary() {
	section "summary"
	local name
	for name in "${ORDER[@]}"; do
		printf '%-11s %-32s %5ss  %s\n' "$name" "${PLATFORM[$name]}" "${SECS[$name]}" "${RESULT[$name]}"
	done
	# One line per platform: the verdict of every step that ran on it.
	local platform line
	declare -A seen=()
	for name in "${ORDER[@]}"; do
		platform=${PLATFORM[$name]}
		[[ -z ${seen[$platform]:-} ]] || continue
		seen[$platform]=1
		line=""
		local other
		for other in "${ORDER[@]}"; do
			[[ ${PLATFORM[$other]} == "$platform" ]] || continue
			line+=" $other=${RESULT[$other]%% *}"
		done
		printf 'PLATFORM %s:%s\n' "$platform" "$line"
	done
	printf 'total %ss: %s\n' "$SECONDS" "$( ((FAILED)) && echo FAILED || echo PASSED)"
}

# meson_setup DIR ARGS...: a fresh configure on a clean clone; on a re-run
# by hand, reconfigure the existing folder instead of failing on it.
meson_setup() {
	local dir=$1
	shift
	if [[ -f $dir/meson-private/coredata.dat ]]; then
		meson setup --reconfigure "$dir" "$@"
	else
		rm -rf "$dir"
		meson setup "$dir" "$@"
	fi
}

pocl_version() {
	dpkg-query -W -f='${Version}' pocl-opencl-icd 2>/dev/null || echo '?'
}
