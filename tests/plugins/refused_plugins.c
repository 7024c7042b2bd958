/* Plugins spotsim must refuse at load time, one per build (REFUSED_* chosen in tests/plugins/CMakeLists.txt). */
#include "spotsim_plugin.h"

#if defined(REFUSED_NO_ENTRY_POINT)
SPOTSIM_PLUGIN_EXPORT int32_t some_other_function(void) { return 0; }
#else
static int marker;
static void* create(const spotsim_params* p, char* e, size_t n) { (void)p; (void)e; (void)n; return &marker; }
static int32_t decide(void* s, const spotsim_observation* o, spotsim_selection_decision* d, char* e, size_t n) {
  (void)s; (void)o; (void)d; (void)e; (void)n;
  return 0;
}

#if defined(REFUSED_OTHER_VERSION)
#define VERSION 2u
#define NAME "from-the-future"
#elif defined(REFUSED_NAME_TAKEN)
#define VERSION SPOTSIM_PLUGIN_ABI_VERSION
#define NAME "spot-only"
#endif

SPOTSIM_PLUGIN_EXPORT int32_t spotsim_plugin_register(const spotsim_host* host) {
  static const spotsim_selection_policy policy = {
      VERSION, sizeof(spotsim_selection_policy), NAME, "refused", "", create, NULL, NULL, decide};
  char error[128];
  /* The return code is ignored on purpose: spotsim must report the refusal anyway. */
  (void)host->add_selection_policy(host->context, &policy, error, sizeof error);
  return 0;
}
#endif
