# Sourced by the uncore tests: the SKX fixture's uncore_imc boxes and power PMU copied to $fx (= $TMP/sysfs) with
# their cpumask rewritten to this machine's first online CPU ($first), so that opening on any other CPU would show.
fx=$TMP/sysfs
mkdir -p "$fx/bus/event_source/devices" "$fx/devices/system/cpu"
online=$(cat /sys/devices/system/cpu/online)
cp /sys/devices/system/cpu/online "$fx/devices/system/cpu/online"
first=${online%%[-,]*}
for d in "$PMC_SOURCE_DIR"/tests/pmu/sysfs-uncore-skx/bus/event_source/devices/{uncore_imc_*,power}; do
	cp -r "$d" "$fx/bus/event_source/devices/"
	echo "$first" >"$fx/bus/event_source/devices/$(basename "$d")/cpumask"
done
