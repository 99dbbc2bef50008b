# stat --topdown on the rig's Cortex-A57 (issue 27), sourced after tests.sh (its helpers, $P, $W). QEMU's PMU counts
# only INST_RETIRED and CPU_CYCLES and reads 0 for every other event it opens (REFERENCE.md section 11): the tree is
# arm-cycles (no slot events on the A57), its stall inputs must come out n/a with the reason, never a 0% node, and
# the cycles it does count are the cycles the command ran.
t11_topdown() {
	n=1000000
	core=$(ls /sys/bus/event_source/devices | grep -m1 '^armv8')
	echo "rig-topdown: $core lists $(ls /sys/bus/event_source/devices/$core/events 2>/dev/null | tr '\n' ' ')"
	rm -f $W/td.txt
	$P stat --topdown -o $W/td.txt -- loop $n 2>$W/td.err; rt=$?
	sed 's/^/    | /' $W/td.txt
	show_err $W/td.err
	stat_csv $W/td.csv --topdown -- loop $n; rc=$?
	tree=$(awk -F, '$1 == "topdown" { print $25; exit }' $W/td.csv)
	nodes=$(awk -F, '$1 == "topdown" { print $2 }' $W/td.csv | tr '\n' ' ')
	na=$(awk -F, '$1 == "topdown" && $12 == "n/a" && $6 == "" && $13 ~ /was not counted/' $W/td.csv | wc -l)
	num=$(awk -F, '$1 == "topdown" && $6 != ""' $W/td.csv | wc -l)
	cyc=$(awk -F, '$1 == "summary" && $2 == "cpu_cycles" { print $14, $12 }' $W/td.csv)
	ok=1
	[ "$tree" = arm-cycles ] && [ "$nodes" = "frontend_stalls backend_stalls issuing " ] && [ "$na" = 3 ] &&
		[ "$num" = 0 ] && ok=0
	verdict 11a topdown-a57-na $ok "--topdown on loop $n: tree '$tree', nodes: $nodes; $na of 3 n/a with the reason, $num with a number (exit $rc, table exit $rt)"
	[ $ok = 0 ] || show_err $W/td.csv 10
	reason=$(awk -F, '$1 == "topdown" && $2 == "frontend_stalls" { print $13 }' $W/td.csv | cut -c1-220)
	cm=$(echo "$cyc" | awk '{ print $1 }') cs=$(echo "$cyc" | awk '{ print $2 }')
	tna=$(grep -cE '^  (frontend_stalls|backend_stalls|issuing) +n/a  input STALL_(FE|BE) ' $W/td.txt)
	ok=1
	case "$reason" in *"stall_frontend) was not counted: it read 0 and event 0x23 is not in"*PMCEID*) ok=0 ;; esac
	[ $ok = 0 ] && [ "$cs" = ok ] && [ "${cm%.*}" -ge "$(loop_expect $n)" ] && [ "$tna" = 3 ] || ok=1
	verdict 11b topdown-a57-reason $ok "frontend_stalls: $reason; cpu_cycles counted ($cs) $cm >= $(loop_expect $n) user instructions; $tna of 3 table rows n/a"
}

# --regions --topdown: a tree per region (rg-prog basic: inner, outer, b-only) from the program's own counters, with
# the stall inputs n/a for the same reason (QEMU reads them 0, PMCEID does not list them), never a number; the note
# says how the program read its counters (in process or read(2)). -I: a tree per interval after its records.
t11_topdown_scopes() {
	rm -f $W/tdr.txt $W/tdi.txt
	$P stat --regions --topdown -o $W/tdr.txt -- /rig/rg-prog basic 2>$W/tdr.err; rc=$?
	sed -n '/Top-down/,/^ Regions/p' $W/tdr.txt | sed 's/^/    | /' | cut -c1-160
	show_err $W/tdr.err
	trees=$(grep -E '^ Top-down of region ' $W/tdr.txt | sed 's/^ Top-down of region \([^,]*\),.*/\1/' | tr '\n' ' ')
	na=$(grep -cE '^  (frontend_stalls|backend_stalls|issuing) +n/a  input STALL_(FE|BE) \(stall_(frontend|backend)\) was not counted: it read 0 and event 0x2[34] is not in' $W/tdr.txt)
	num=$(grep -cE '^  (frontend_stalls|backend_stalls|issuing) +[0-9.]+%' $W/tdr.txt)
	how=$(grep -E 'topdown-regions' $W/tdr.txt | sed 's/.*(read: \([^)]*\)).*/\1/')
	ok=1
	[ "$trees" = "inner outer b-only " ] && [ "$na" = 12 ] && [ "$num" = 0 ] && [ -n "$how" ] && ok=0
	verdict 11c topdown-regions-a57 $ok "--regions --topdown on rg-prog basic: region trees: $trees; $na of 12 nodes (whole program + 3 regions) n/a with PMCEID's reason, $num with a number; the program read its counters: $how (exit $rc)"
	$P stat -I 10 --topdown -x, -o $W/tdi.txt -- loop 10000000 2>$W/tdi.err; rc=$?
	ni=$(grep -cE '^ *[0-9]+\.[0-9]+,[^,]*,[^,]*,cpu_cycles,' $W/tdi.txt)
	nt=$(grep -cE '^ *[0-9]+\.[0-9]+,<n/a>,%,topdown\.(frontend_stalls|backend_stalls|issuing),,1,' $W/tdi.txt)
	nn=$(grep -cE '^ *[0-9]+\.[0-9]+,[0-9.]+,%,topdown\.' $W/tdi.txt)
	ok=1
	[ "$ni" -ge 1 ] && [ "$nt" = $((3 * ni)) ] && [ "$nn" = 0 ] && ok=0
	verdict 11d topdown-interval-a57 $ok "-I 10 --topdown on loop 10000000: $ni intervals, $nt interval tree lines n/a (3 each), $nn with a number (exit $rc)"
	[ $ok = 0 ] || { head -n 12 $W/tdi.txt | sed 's/^/    | /'; show_err $W/tdi.err; }
}
