# shlocConfig.cmake: find_package(shloc), installed by `make install` into
# PREFIX/lib/cmake/shloc. Provides
#   SHLOC_EXECUTABLE   the compiler (PREFIX/bin/shloc)
#   shloc::shlort      the runtime library (libshlort.a and pthreads), needed
#                      by objects compiled with --threads=N (N > 1)
#   shloc::shlort_mpi  the MPI variant of the runtime, when it was installed
#                      (link MPI itself too, e.g. MPI::MPI_C)
#   shloc_add_model(<target> <model.mlir> [NAME <prefix>] [RUNTIME]
#                   [OPTIONS <shloc options>...])
#     compiles the model at build time into <stem>.o and <stem>.h under
#     ${CMAKE_CURRENT_BINARY_DIR}/<target>.shloc/, recompiling when the model
#     or the compiler changes, adds the object to <target>, the header's
#     directory to its include path, and links shloc::shlort when OPTIONS
#     has --threads=N with N > 1, or when RUNTIME is given. NAME sets the C
#     prefix (--name). OPTIONS are passed to shloc as they are (-O2,
#     --target=aarch64-linux-gnu, --cpu=..., --entry=...). Needs CMake 3.13.

get_filename_component(_shloc_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(SHLOC_EXECUTABLE "${_shloc_prefix}/bin/shloc" CACHE FILEPATH "the shloc compiler")

# libshlort.a runs its parallel loops on a team of POSIX threads.
set(THREADS_PREFER_PTHREAD_FLAG ON)
find_package(Threads REQUIRED)

function(_shloc_runtime_target name file)
  if(TARGET ${name} OR NOT EXISTS "${file}")
    return()
  endif()
  add_library(${name} STATIC IMPORTED)
  set_target_properties(${name} PROPERTIES
    IMPORTED_LOCATION "${file}"
    INTERFACE_INCLUDE_DIRECTORIES "${_shloc_prefix}/include")
  set_property(TARGET ${name} APPEND PROPERTY INTERFACE_LINK_LIBRARIES Threads::Threads)
endfunction()
_shloc_runtime_target(shloc::shlort "${_shloc_prefix}/lib/libshlort.a")
_shloc_runtime_target(shloc::shlort_mpi "${_shloc_prefix}/lib/libshlort_mpi.a")

# Whether shloc options ask for more than one thread: "--threads=N" or
# "--threads N" with N != 1 (0 means all cores).
function(_shloc_wants_threads out)
  set(wants FALSE)
  set(next FALSE)
  foreach(opt IN LISTS ARGN)
    set(n "")
    if(next)
      set(n "${opt}")
      set(next FALSE)
    elseif(opt STREQUAL "--threads")
      set(next TRUE)
    elseif(opt MATCHES "^--threads=(.*)$")
      set(n "${CMAKE_MATCH_1}")
    endif()
    if(NOT n STREQUAL "" AND NOT n STREQUAL "1")
      set(wants TRUE)
    endif()
  endforeach()
  set(${out} ${wants} PARENT_SCOPE)
endfunction()

function(shloc_add_model target model)
  cmake_parse_arguments(PARSE_ARGV 2 ARG "RUNTIME" "NAME" "OPTIONS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "shloc_add_model: unexpected arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "shloc_add_model: ${target} is not a target")
  endif()
  get_filename_component(model "${model}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  get_filename_component(stem "${model}" NAME_WE)
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/${target}.shloc")
  set(obj "${dir}/${stem}.o")
  set(hdr "${dir}/${stem}.h")
  set(opts ${ARG_OPTIONS})
  if(ARG_NAME)
    list(APPEND opts "--name=${ARG_NAME}")
  endif()
  add_custom_command(
    OUTPUT "${obj}" "${hdr}"
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${dir}"
    COMMAND "${SHLOC_EXECUTABLE}" "${model}" -o "${obj}" ${opts}
    DEPENDS "${model}" "${SHLOC_EXECUTABLE}"
    COMMENT "shloc: compiling ${stem}.mlir for ${target}"
    VERBATIM)
  set_source_files_properties("${obj}" PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
  target_sources(${target} PRIVATE "${obj}" "${hdr}")
  target_include_directories(${target} PRIVATE "${dir}")
  _shloc_wants_threads(threads ${ARG_OPTIONS})
  if(ARG_RUNTIME OR threads)
    if(NOT TARGET shloc::shlort)
      message(FATAL_ERROR "shloc_add_model(${target}): the runtime is not installed")
    endif()
    target_link_libraries(${target} PRIVATE shloc::shlort)
  endif()
endfunction()
