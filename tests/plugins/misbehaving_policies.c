/* Policies that break the plugin ABI's rules at run time, one way each, for tests/plugins/plugin_test.cpp. */
#include <stdio.h>

#include "spotsim_plugin.h"

static int marker;
static void* create(const spotsim_params* params, char* error, size_t error_size) {
  (void)params; (void)error; (void)error_size;
  return &marker;
}

static int32_t bad_purchase(void* s, const spotsim_observation* o, spotsim_selection_decision* d, char* e, size_t n) {
  (void)s; (void)o; (void)e; (void)n;
  d->purchase = 7;
  return 0;
}
static int32_t bad_zone(void* s, const spotsim_observation* o, spotsim_selection_decision* d, char* e, size_t n) {
  (void)s; (void)e; (void)n;
  d->purchase = SPOTSIM_PURCHASE_ON_DEMAND;
  d->zone = o->zone_count;
  return 0;
}
static int32_t past_review(void* s, const spotsim_observation* o, spotsim_selection_decision* d, char* e, size_t n) {
  (void)s; (void)e; (void)n;
  d->purchase = SPOTSIM_PURCHASE_ON_DEMAND;
  d->zone = 0;
  d->review_at_ms = o->now_ms - 1;
  return 0;
}
static int32_t review_now(void* s, const spotsim_observation* o, spotsim_selection_decision* d, char* e, size_t n) {
  (void)s; (void)e; (void)n;
  d->purchase = SPOTSIM_PURCHASE_ON_DEMAND;
  d->zone = 0;
  d->review_at_ms = o->now_ms; /* would ask the same question again at once, forever */
  return 0;
}
static int32_t review_far(void* s, const spotsim_observation* o, spotsim_selection_decision* d, char* e, size_t n) {
  (void)s; (void)e; (void)n;
  d->purchase = SPOTSIM_PURCHASE_ON_DEMAND;
  d->zone = 0;
  d->review_at_ms = o->now_ms + 4000000000000000000LL / 4; /* below SPOTSIM_NEVER, beyond any horizon */
  return 0;
}
static int32_t failing(void* s, const spotsim_observation* o, spotsim_selection_decision* d, char* e, size_t n) {
  (void)s; (void)d;
  if (o->elapsed_ms < 3600 * 1000LL) { /* fine at the start, fails at its first decision after an hour */
    d->purchase = SPOTSIM_PURCHASE_SPOT;
    d->zone = 0;
    d->review_at_ms = o->now_ms + 2 * 3600 * 1000LL;
    return 0;
  }
  snprintf(e, n, "the model file is missing");
  return 5;
}
static int32_t zero_interval(void* s, const spotsim_observation* o, int64_t* interval, char* e, size_t n) {
  (void)s; (void)o; (void)e; (void)n;
  *interval = 0;
  return 0;
}
static int32_t huge_interval(void* s, const spotsim_observation* o, int64_t* interval, char* e, size_t n) {
  (void)s; (void)o; (void)e; (void)n;
  *interval = SPOTSIM_NEVER - 1; /* below "never", 580 million years: a unit mistake */
  return 0;
}
static int32_t negative_interval(void* s, const spotsim_observation* o, int64_t* interval, char* e, size_t n) {
  (void)s; (void)o; (void)e; (void)n;
  *interval = -60000;
  return 0;
}
static void* refuses(const spotsim_params* params, char* error, size_t error_size) {
  (void)params;
  snprintf(error, error_size, "no licence for this policy");
  return NULL;
}

#define SELECTION(name, decide) \
  {SPOTSIM_PLUGIN_ABI_VERSION, sizeof(spotsim_selection_policy), name, "misbehaves", "", create, NULL, NULL, decide}

SPOTSIM_PLUGIN_EXPORT int32_t spotsim_plugin_register(const spotsim_host* host) {
  static const spotsim_selection_policy policies[] = {
      SELECTION("bad-purchase", bad_purchase), SELECTION("bad-zone", bad_zone),
      SELECTION("past-review", past_review), SELECTION("failing", failing), SELECTION("review-now", review_now),
      SELECTION("review-far", review_far)};
  static const spotsim_selection_policy refusing = {
      SPOTSIM_PLUGIN_ABI_VERSION, sizeof(spotsim_selection_policy), "refusing", "refuses", "", refuses, NULL, NULL,
      bad_purchase};
  static const spotsim_checkpoint_policy zero = {
      SPOTSIM_PLUGIN_ABI_VERSION, sizeof(spotsim_checkpoint_policy), "zero-interval", "misbehaves", "", create, NULL,
      NULL, zero_interval, NULL};
  static const spotsim_checkpoint_policy huge = {
      SPOTSIM_PLUGIN_ABI_VERSION, sizeof(spotsim_checkpoint_policy), "huge-interval", "misbehaves", "", create, NULL,
      NULL, huge_interval, NULL};
  static const spotsim_checkpoint_policy negative = {
      SPOTSIM_PLUGIN_ABI_VERSION, sizeof(spotsim_checkpoint_policy), "negative-interval", "misbehaves", "", create,
      NULL, NULL, negative_interval, NULL};
  char error[128];
  for (unsigned i = 0; i < sizeof policies / sizeof policies[0]; ++i) {
    if (host->add_selection_policy(host->context, &policies[i], error, sizeof error) != 0) return 1;
  }
  if (host->add_selection_policy(host->context, &refusing, error, sizeof error) != 0) return 1;
  if (host->add_checkpoint_policy(host->context, &huge, error, sizeof error) != 0) return 1;
  if (host->add_checkpoint_policy(host->context, &negative, error, sizeof error) != 0) return 1;
  return host->add_checkpoint_policy(host->context, &zero, error, sizeof error);
}
