# The loaders' libraries (cJSON, zlib, zstd, expat) as imported targets PkgConfig::CJSON,
# PkgConfig::ZLIB, PkgConfig::ZSTD and PkgConfig::EXPAT: the names tilenav's build links and
# its installed package exports. Each comes from pkg-config when pkg-config is there and knows
# the library, else from the library's own CMake package or CMake's Find module (Windows with
# vcpkg, or any machine without pkg-config), wrapped under the same name. Used by CMakeLists.txt
# and, installed beside it, by tilenavConfig.cmake.
#
#   tilenav_find_io_deps(<missing-var>)  sets <missing-var> to the libraries not found
#
# TILENAV_DEPS_NO_PKGCONFIG=ON skips pkg-config (CI's way to test the other route).

function(_tilenav_wrap var target)
  add_library(PkgConfig::${var} INTERFACE IMPORTED)
  target_link_libraries(PkgConfig::${var} INTERFACE ${target})
endfunction()

function(tilenav_find_io_deps missing_var)
  set(missing "")
  if(NOT TILENAV_DEPS_NO_PKGCONFIG)
    find_package(PkgConfig QUIET)
  endif()
  foreach(dep CJSON:libcjson ZLIB:zlib ZSTD:libzstd EXPAT:expat)
    string(REPLACE ":" ";" dep "${dep}")
    list(GET dep 0 var)
    list(GET dep 1 module)
    if(TARGET PkgConfig::${var})
      continue()
    endif()
    if(PKG_CONFIG_FOUND AND NOT TILENAV_DEPS_NO_PKGCONFIG)
      pkg_check_modules(${var} QUIET IMPORTED_TARGET ${module})
      if(TARGET PkgConfig::${var})
        continue()
      endif()
    endif()
    # the library's own CMake package, or CMake's Find module
    if(var STREQUAL "CJSON")
      find_package(cJSON CONFIG QUIET)
      if(TARGET cjson)
        _tilenav_wrap(CJSON cjson)
      endif()
    elseif(var STREQUAL "ZLIB")
      find_package(ZLIB QUIET)
      if(TARGET ZLIB::ZLIB)
        _tilenav_wrap(ZLIB ZLIB::ZLIB)
      endif()
    elseif(var STREQUAL "ZSTD")
      find_package(zstd CONFIG QUIET)
      foreach(t zstd::libzstd zstd::libzstd_shared zstd::libzstd_static)
        if(TARGET ${t} AND NOT TARGET PkgConfig::ZSTD)
          _tilenav_wrap(ZSTD ${t})
        endif()
      endforeach()
    elseif(var STREQUAL "EXPAT")
      find_package(expat CONFIG QUIET)
      if(TARGET expat::expat)
        _tilenav_wrap(EXPAT expat::expat)
      else()
        find_package(EXPAT QUIET)
        if(TARGET EXPAT::EXPAT)
          _tilenav_wrap(EXPAT EXPAT::EXPAT)
        endif()
      endif()
    endif()
    if(NOT TARGET PkgConfig::${var})
      list(APPEND missing ${module})
    endif()
  endforeach()
  set(${missing_var} "${missing}" PARENT_SCOPE)
endfunction()
