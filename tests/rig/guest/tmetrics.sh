# stat -M through a vendor table on the rig's Cortex-A57 (issue 23 item 2), sourced after tests.sh (its helpers, $P,
# $W). The fixture table (tests/metrics/tables/pmu-events, arm64: written for these tests) has a user-mode IPC and a
# TopdownL1 of the arm-cycles tree's two stall shares. QEMU counts INST_RETIRED and CPU_CYCLES and reads 0 for the
# stall events (REFERENCE.md section 11): the table's IPC must be pmctool's IPC of the same pair on the same loop, and
# the stall shares n/a with the reason wherever --topdown's are, never a 0%.
t13_table_metrics() {
	n=1000000
	T=/rig/tmetrics-tables
	stat_csv $W/tm.csv --tables $T -M fake_a57_user_ipc,table:TopdownL1 -- loop $n; rc=$?
	show_err $W/tm.csv 8
	stat_csv $W/tmref.csv -e instructions:u,cycles:u -- loop $n; rr=$?
	ipc=$(csv_metric $W/tm.csv fake_a57_user_ipc)
	ref=$(csv_metric $W/tmref.csv IPC)
	inst=$(csv_counts $W/tm.csv INST_RETIRED:u | awk '{ print $2 }')
	ok=1
	[ $rc = 0 ] && [ $rr = 0 ] && [ -n "$ipc" ] && [ "$ipc" = "$ref" ] && [ "$inst" = "$(loop_expect $n)" ] && ok=0
	verdict 13a table-metric-ipc $ok "-M fake_a57_user_ipc on loop $n: $ipc, pmctool's IPC of instructions:u,cycles:u $ref; INST_RETIRED:u $inst (expected $(loop_expect $n)) (exits $rc, $rr)"
	fe=$(awk -F, '$1 == "metric" && $2 == "fake_frontend_stalls" { print $12 "|" $13; exit }' $W/tm.csv)
	be=$(awk -F, '$1 == "metric" && $2 == "fake_backend_stalls" { print $12 "|" $13; exit }' $W/tm.csv)
	stat_csv $W/tmtd.csv --topdown -- loop $n
	tdfe=$(awk -F, '$1 == "topdown" && $2 == "frontend_stalls" { print $12; exit }' $W/tmtd.csv)
	tdbe=$(awk -F, '$1 == "topdown" && $2 == "backend_stalls" { print $12; exit }' $W/tmtd.csv)
	ok=1
	case "$fe" in "n/a|"*STALL_FRONTEND*"not counted"*) case "$be" in "n/a|"*STALL_BACKEND*"not counted"*) ok=0 ;; esac ;; esac
	[ "$tdfe" = n/a ] && [ "$tdbe" = n/a ] || ok=1
	verdict 13b table-topdown-na-agrees $ok "table:TopdownL1 frontend: $(echo "$fe" | cut -c1-160); backend: $(echo "$be" | cut -c1-60); --topdown's: $tdfe, $tdbe"
}
