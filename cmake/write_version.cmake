# Writes spotsim/version.hpp with the current git revision. Run at every build (not only at configure time), so a
# manifest never reports a stale revision; configure_file leaves the file untouched when nothing changed, so an
# unchanged revision triggers no rebuild.
execute_process(COMMAND git rev-parse --short=12 HEAD
                WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE SPOTSIM_GIT_REVISION OUTPUT_STRIP_TRAILING_WHITESPACE
                ERROR_QUIET)
if(NOT SPOTSIM_GIT_REVISION)
  set(SPOTSIM_GIT_REVISION "unknown")
endif()
set(PROJECT_VERSION ${VERSION})
configure_file(${SOURCE_DIR}/cmake/version.hpp.in ${OUTPUT} @ONLY)
