# spotsim_library(NAME SOURCES a.cpp ... DEPENDS lib ...): one layer of the project as a static library
# (docs/dev/architecture.md). DEPENDS lists what the layer may use: the libraries below it and external ones;
# tests/source/check_layers.py checks that its includes say the same.
# With SPOTSIM_UNITY_CORE every layer compiles as a unity build (batches of 8 files): several times faster from
# scratch, at the price of recompiling a batch for every change (CI turns it on through ./dev; an incremental
# developer build is quicker without it).
function(spotsim_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPENDS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/generated)
  target_link_libraries(${name} PUBLIC ${ARG_DEPENDS})
  add_dependencies(${name} spotsim_version)
  if(SPOTSIM_UNITY_CORE)
    set_target_properties(${name} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  endif()
  set_property(GLOBAL APPEND PROPERTY SPOTSIM_LIBRARIES ${name})
endfunction()
