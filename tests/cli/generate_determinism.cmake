# Generates with CLI (orbis-cli) and PIPELINE into DIR three times: twice with one seed, which
# must give byte-identical files, and once with another seed, which must not.
foreach(run a:5 b:5 c:6)
    string(REPLACE ":" ";" parts ${run})
    list(GET parts 0 name)
    list(GET parts 1 seed)
    execute_process(COMMAND ${CLI} generate --pipeline ${PIPELINE} --seed ${seed}
                            -o ${DIR}/determinism_${name}.orbis
                    RESULT_VARIABLE code OUTPUT_QUIET ERROR_VARIABLE err)
    if(NOT code EQUAL 0)
        message(FATAL_ERROR "generate --seed ${seed} failed (${code}): ${err}")
    endif()
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${DIR}/determinism_a.orbis
                        ${DIR}/determinism_b.orbis RESULT_VARIABLE same)
if(NOT same EQUAL 0)
    message(FATAL_ERROR "the same seed gave different files")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${DIR}/determinism_a.orbis
                        ${DIR}/determinism_c.orbis RESULT_VARIABLE same)
if(same EQUAL 0)
    message(FATAL_ERROR "different seeds gave the same file")
endif()
