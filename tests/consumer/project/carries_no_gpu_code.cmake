# cmake -DPROGRAM=<file> -P carries_no_gpu_code.cmake: fails when the program holds CUDA
# kernels (a .nv_fatbin section, whose name its section table spells out).
file(STRINGS "${PROGRAM}" found REGEX "\\.nv_fatbin" LIMIT_COUNT 1)
file(SIZE "${PROGRAM}" bytes)
if(found)
  message(FATAL_ERROR "${PROGRAM} (${bytes} bytes) carries GPU code (.nv_fatbin)")
endif()
message(STATUS "${PROGRAM}: ${bytes} bytes, no GPU code")
