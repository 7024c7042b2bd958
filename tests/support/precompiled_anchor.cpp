// The one source of spotsim_test_pch, the target whose precompiled header every test executable reuses
// (tests/CMakeLists.txt): GoogleTest, nlohmann's json and the standard headers the tests use, parsed once.
