#pragma once
// How many drawn cases a property test runs: by build (a sanitized run costs about 8 times a Release one, an
// unoptimised one several times), and ENV=<n> for a longer or shorter soak with the same generator.
#include <cstdlib>

namespace spotsim {

#if defined(__SANITIZE_ADDRESS__)
#define SPOTSIM_GUARANTEE_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SPOTSIM_GUARANTEE_SANITIZED 1
#endif
#endif

inline int case_budget(const char* env_name, int release, int debug, int sanitized) {
  if (const char* env = std::getenv(env_name)) {
    const int n = std::atoi(env);
    if (n > 0) return n;
  }
#if defined(SPOTSIM_GUARANTEE_SANITIZED)
  (void)release, (void)debug;
  return sanitized;
#elif !defined(NDEBUG)
  (void)release, (void)sanitized;
  return debug;
#else
  (void)debug, (void)sanitized;
  return release;
#endif
}

}  // namespace spotsim
