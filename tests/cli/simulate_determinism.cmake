# Simulates WORLD with CLI (orbis-cli) three times with one seed (under which, with the module
# of issue 18, a plate rifts on the small test world): twice without frames, which must give
# byte-identical files, and once with frames, which runs the steps one by one outside run_module
# and must give the same file.
foreach(run a b c)
    set(frames)
    if(run STREQUAL "c")
        set(frames --frames ${DIR}/determinism_frames --layer elevation --every 2 -w 64)
    endif()
    execute_process(COMMAND ${CLI} simulate ${WORLD} --steps 20 --dt 2 --seed 13 ${frames}
                            -o ${DIR}/simulate_${run}.orbis
                    RESULT_VARIABLE code OUTPUT_QUIET ERROR_VARIABLE err)
    if(NOT code EQUAL 0)
        message(FATAL_ERROR "simulate (${run}) failed (${code}): ${err}")
    endif()
endforeach()
foreach(run b c)
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${DIR}/simulate_a.orbis
                            ${DIR}/simulate_${run}.orbis RESULT_VARIABLE same)
    if(NOT same EQUAL 0)
        message(FATAL_ERROR "simulate_a.orbis and simulate_${run}.orbis differ")
    endif()
endforeach()
