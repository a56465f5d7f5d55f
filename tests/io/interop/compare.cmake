# SPDX-License-Identifier: MIT
# One PLY interop test: WRITER writes FILE and prints a summary of what it wrote, READER reads
# FILE and prints a summary of what it read; the test passes when both are the same
# (tests/io/interop/orbis_ply_tool.cpp describes the summary).
#
#   cmake -DWRITER=exe|arg -DWRITE=write -DREADER=exe|arg -DFILE=path -DFORMAT=ascii|binary
#         [-DPROPERTY=name] -P compare.cmake
#
# WRITER and READER are commands whose words are separated by '|' (a ';' would be split by
# add_test).
cmake_minimum_required(VERSION 3.22)

foreach(var WRITER WRITE READER FILE FORMAT)
    if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
        message(FATAL_ERROR "compare.cmake: ${var} is not set")
    endif()
endforeach()
string(REPLACE "|" ";" writer "${WRITER}")
string(REPLACE "|" ";" reader "${READER}")
string(REPLACE "|" " " writer_text "${WRITER}")
string(REPLACE "|" " " reader_text "${READER}")

get_filename_component(folder "${FILE}" DIRECTORY)
file(MAKE_DIRECTORY "${folder}")
file(REMOVE "${FILE}")

execute_process(COMMAND ${writer} ${WRITE} ${FILE} ${FORMAT}
                RESULT_VARIABLE status OUTPUT_VARIABLE written ERROR_VARIABLE errors)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "the writer failed (${status}): ${writer_text} ${WRITE} ${FILE} ${FORMAT}\n"
                        "${errors}${written}")
endif()
if(NOT EXISTS "${FILE}")
    message(FATAL_ERROR "the writer wrote no file: ${writer_text} ${WRITE} ${FILE} ${FORMAT}")
endif()

execute_process(COMMAND ${reader} read ${FILE} ${PROPERTY}
                RESULT_VARIABLE status OUTPUT_VARIABLE read ERROR_VARIABLE errors)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "the reader failed (${status}): ${reader_text} read ${FILE} ${PROPERTY}\n"
                        "${errors}${read}")
endif()

if(NOT written STREQUAL read)
    message(FATAL_ERROR "the summaries differ\n--- written (${writer_text}):\n${written}"
                        "--- read (${reader_text}):\n${read}")
endif()
message(STATUS "same summary on both sides:\n${written}")
