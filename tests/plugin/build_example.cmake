# Installs the build tree into a scratch prefix, then configures and builds examples/module_plugin
# against it with the compiler of the build tree (a plugin shares C++ classes with its host, so
# both need the same ABI), and copies the plugin to WORK_DIR/modules for the tests to load.
# Arguments: -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DCXX_COMPILER=... -DGENERATOR=...
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
    message(FATAL_ERROR "cmake --install failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
                        -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=Release
                        -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
                RESULT_VARIABLE rc)
if(rc)
    message(FATAL_ERROR "configuring the example plugin against the installed package failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/build RESULT_VARIABLE rc)
if(rc)
    message(FATAL_ERROR "building the example plugin failed")
endif()
file(GLOB plugins ${WORK_DIR}/build/*.so)
if(NOT plugins)
    message(FATAL_ERROR "building the example plugin made no *.so in ${WORK_DIR}/build")
endif()
file(COPY ${plugins} DESTINATION ${WORK_DIR}/modules)
