# ctest bench.plot: a tiny benchmark run (2^10 and 2^12 elements, a few rows per op), then
# bench/plot.py on it and on the committed H200 results; every expected image must exist
# and be non-empty.
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
execute_process(
  COMMAND "${BENCH}" --sizes=10:12:2 --benchmark_min_time=0.001
          "--benchmark_filter=(reduce/(seq|openmp)/(sum|max|argmin|sumsq)|anchor/.*)/f32/"
          "--benchmark_out=${WORK}/cpu.json" --benchmark_out_format=json
  OUTPUT_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "preduce_bench failed (${rc})")
endif()
execute_process(
  COMMAND "${PYTHON}" "${SOURCE}/bench/plot.py" "${WORK}/cpu.json" "${SOURCE}/bench/results/h200-gpu-bench.json"
          --label cpu --label h200 --out "${WORK}"
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "bench/plot.py failed (${rc})")
endif()
foreach(f throughput-cpu.png throughput-cpu.svg throughput-h200.png ladder-h200.png ladder-h200.svg)
  if(NOT EXISTS "${WORK}/${f}")
    message(FATAL_ERROR "bench/plot.py did not write ${f}")
  endif()
  file(SIZE "${WORK}/${f}" size)
  if(size LESS 1000)
    message(FATAL_ERROR "${f} is only ${size} bytes")
  endif()
endforeach()
