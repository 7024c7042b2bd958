/* An example spotsim policy plugin in plain C99: it includes only spotsim_plugin.h and is built outside spotsim's
 * own library (docs/plugins.md walks through it).
 *
 *   cc -std=c99 -O2 -shared -fPIC -I <spotsim>/policies/plugin example_policies.c -o libexample_policies.so
 *   spotsim simulate --plugin ./libexample_policies.so --policy slack-guard:slack=3h --deadline 60h
 *
 * Three policies:
 * - plugin-spot-only: the built-in `spot-only` rewritten against the ABI (the tests check that both give
 *   identical runs, and the benchmark compares their speed);
 * - slack-guard: spot while the deadline's slack exceeds a margin, then on-demand for good; it asks to be woken
 *   exactly when the margin would be crossed (review_at_ms), so it is called only at events that matter;
 * - plugin-fixed: the built-in `fixed` checkpoint interval, with its parameter read through the host's getters. */
#include <stdio.h>
#include <stdlib.h>

#include "spotsim_plugin.h"

/* ---- helpers over the observation ---- */

static int cheapest_obtainable_spot_zone(const spotsim_observation* obs) {
  int best = -1;
  for (int z = 0; z < obs->zone_count; ++z) {
    if (!obs->zones[z].spot_available) continue;
    if (best < 0 || obs->zones[z].spot_price_per_hour < obs->zones[best].spot_price_per_hour) best = z;
  }
  return best;
}

static int cheapest_on_demand_zone(const spotsim_observation* obs) {
  int best = 0;
  for (int z = 1; z < obs->zone_count; ++z) {
    if (obs->zones[z].on_demand_price_per_hour < obs->zones[best].on_demand_price_per_hour) best = z;
  }
  return best;
}

static void decide_spot(spotsim_selection_decision* d, int zone) {
  d->purchase = SPOTSIM_PURCHASE_SPOT;
  d->zone = zone;
  d->review_at_ms = SPOTSIM_NEVER;
  d->wake_on_spot = 0;
}

static void decide_wait(spotsim_selection_decision* d) {
  d->purchase = SPOTSIM_PURCHASE_NONE;
  d->zone = 0;
  d->review_at_ms = SPOTSIM_NEVER;
  d->wake_on_spot = 1;
}

/* ---- plugin-spot-only: no state, no parameters ---- */

static int stateless_marker;

static void* spot_only_create(const spotsim_params* params, char* error, size_t error_size) {
  (void)params; (void)error; (void)error_size;
  return &stateless_marker; /* any non-NULL pointer: nothing to keep */
}

static void nothing_to_destroy(void* state) { (void)state; }

static int32_t spot_only_decide(void* state, const spotsim_observation* obs, spotsim_selection_decision* d,
                                char* error, size_t error_size) {
  (void)state; (void)error; (void)error_size;
  if (obs->purchase == SPOTSIM_PURCHASE_SPOT) {
    decide_spot(d, obs->zone);
    return 0;
  }
  const int zone = cheapest_obtainable_spot_zone(obs);
  if (zone < 0) decide_wait(d); else decide_spot(d, zone);
  return 0;
}

/* ---- slack-guard: spot until the slack reaches a margin, then on-demand for good ---- */

typedef struct {
  int64_t margin_ms;
  int committed; /* on on-demand for good (reset per replication) */
} slack_guard;

static void* slack_guard_create(const spotsim_params* params, char* error, size_t error_size) {
  int64_t margin = 0;
  if (params->duration_ms(params->context, "slack", 2 * 3600 * 1000LL, &margin) != 0) return NULL;
  if (margin < 0) {
    snprintf(error, error_size, "slack must be >= 0, got %lld ms", (long long)margin);
    return NULL;
  }
  slack_guard* state = malloc(sizeof *state);
  if (state == NULL) {
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  state->margin_ms = margin;
  state->committed = 0;
  return state;
}

static void slack_guard_destroy(void* state) { free(state); }

static void slack_guard_reset(void* state) { ((slack_guard*)state)->committed = 0; }

static int32_t slack_guard_decide(void* state, const spotsim_observation* obs, spotsim_selection_decision* d,
                                  char* error, size_t error_size) {
  (void)error; (void)error_size;
  slack_guard* self = state;
  const int od_zone = obs->purchase == SPOTSIM_PURCHASE_ON_DEMAND ? obs->zone : cheapest_on_demand_zone(obs);
  if (!self->committed && obs->job.deadline_ms < SPOTSIM_NEVER) {
    /* Slack = time left - work left - one restart (start-up + restore) on on-demand. */
    const int64_t restart = obs->job.startup_ms + obs->job.restore_ms;
    const int64_t slack = (obs->job.deadline_ms - obs->elapsed_ms) - (obs->job.work_ms - obs->progress_ms) - restart;
    if (slack <= self->margin_ms) {
      self->committed = 1;
    } else {
      /* Progress only eats slack while no work is done, so this is the latest safe moment to look again. */
      spot_only_decide(NULL, obs, d, NULL, 0);
      d->review_at_ms = obs->now_ms + (slack - self->margin_ms);
      return 0;
    }
  }
  if (self->committed) {
    d->purchase = SPOTSIM_PURCHASE_ON_DEMAND;
    d->zone = od_zone;
    d->review_at_ms = SPOTSIM_NEVER;
    d->wake_on_spot = 0;
    return 0;
  }
  return spot_only_decide(NULL, obs, d, NULL, 0);
}

/* ---- plugin-fixed: a checkpoint every `interval` of compute ---- */

typedef struct {
  int64_t interval_ms;
  uint32_t flags;
} fixed_checkpoint;

static void* fixed_create(const spotsim_params* params, char* error, size_t error_size) {
  int64_t interval = 0;
  int32_t on_notice = 0;
  if (params->duration_ms(params->context, "interval", 3600 * 1000LL, &interval) != 0) return NULL;
  if (params->flag(params->context, "on_notice", 0, &on_notice) != 0) return NULL;
  if (interval <= 0) {
    snprintf(error, error_size, "interval must be > 0");
    return NULL;
  }
  fixed_checkpoint* state = malloc(sizeof *state);
  if (state == NULL) {
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  state->interval_ms = interval;
  state->flags = on_notice ? SPOTSIM_CHECKPOINT_ON_NOTICE : 0u;
  return state;
}

static void fixed_destroy(void* state) { free(state); }

static int32_t fixed_next_interval(void* state, const spotsim_observation* obs, int64_t* interval, char* error,
                                   size_t error_size) {
  (void)obs; (void)error; (void)error_size;
  *interval = ((const fixed_checkpoint*)state)->interval_ms;
  return 0;
}

static uint32_t fixed_flags(void* state) { return ((const fixed_checkpoint*)state)->flags; }

/* ---- registration ---- */

SPOTSIM_PLUGIN_EXPORT int32_t spotsim_plugin_register(const spotsim_host* host) {
  static const spotsim_selection_policy spot_only = {
      SPOTSIM_PLUGIN_ABI_VERSION, sizeof(spotsim_selection_policy), "plugin-spot-only",
      "always spot, cheapest zone where it is obtainable; waits while none is (spot-only as a plugin)", "",
      spot_only_create, nothing_to_destroy, NULL, spot_only_decide};
  static const spotsim_selection_policy slack_guard_policy = {
      SPOTSIM_PLUGIN_ABI_VERSION, sizeof(spotsim_selection_policy), "slack-guard",
      "spot while the deadline's slack exceeds a margin, then on-demand for good",
      "slack=2h (the margin kept for one restart on on-demand)", slack_guard_create, slack_guard_destroy,
      slack_guard_reset, slack_guard_decide};
  static const spotsim_checkpoint_policy fixed = {
      SPOTSIM_PLUGIN_ABI_VERSION, sizeof(spotsim_checkpoint_policy), "plugin-fixed",
      "a checkpoint every N of compute (fixed as a plugin)", "interval=1h, on_notice=false", fixed_create,
      fixed_destroy, NULL, fixed_next_interval, fixed_flags};
  char error[256];
  if (host->abi_version != SPOTSIM_PLUGIN_ABI_VERSION) return 1;
  if (host->add_selection_policy(host->context, &spot_only, error, sizeof error) != 0) return 1;
  if (host->add_selection_policy(host->context, &slack_guard_policy, error, sizeof error) != 0) return 1;
  if (host->add_checkpoint_policy(host->context, &fixed, error, sizeof error) != 0) return 1;
  return 0;
}
