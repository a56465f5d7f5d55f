# Runs COMMAND (a ;-list) and passes only when it exits with code 1 (a handled failure, not a
# crash) and prints exactly one line on stderr that matches EXPECT.
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE code OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT code EQUAL 1)
    message(FATAL_ERROR "exit code ${code}, expected 1; stderr: ${err}")
endif()
string(REGEX MATCHALL "\n" newlines "${err}")
list(LENGTH newlines lines)
if(NOT lines EQUAL 1)
    message(FATAL_ERROR "expected one line on stderr, got ${lines}: ${err}")
endif()
if(NOT err MATCHES "${EXPECT}")
    message(FATAL_ERROR "stderr does not match '${EXPECT}': ${err}")
endif()
