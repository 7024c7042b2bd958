/* spotsim policy plugin ABI, version 1.
 *
 * A plugin is a shared library built outside spotsim that includes only this header and exports one function,
 *
 *     SPOTSIM_PLUGIN_EXPORT int32_t spotsim_plugin_register(const spotsim_host* host);
 *
 * which calls host->add_selection_policy / host->add_checkpoint_policy once per policy. `spotsim simulate
 * --plugin lib.so` (and sweep, advise, the Python module's load_plugin) loads it; its policies then appear in
 * --list-policies and are used by name like the built-in ones. docs/plugins.md has a worked example.
 *
 * Rules of the ABI:
 * - Plain C, fixed-width fields, no C++ types, no exceptions across it. Times are int64 milliseconds;
 *   SPOTSIM_NEVER means "never / no deadline".
 * - Every policy struct starts with abi_version = SPOTSIM_PLUGIN_ABI_VERSION; spotsim refuses a policy built
 *   against another version (the struct layouts below are frozen per version; new fields mean a new version).
 * - create() is called once per simulation thread and replication stream; the returned state is used by one
 *   thread at a time, but different states run concurrently: keep no mutable globals.
 * - Strings handed to the host are copied during the call; the library stays loaded until the process exits.
 * - On failure a callback returns non-zero and may write a message (NUL-terminated, at most error_size bytes)
 *   into `error`; spotsim stops the run with that message, the policy's name and the simulated time. */
#ifndef SPOTSIM_PLUGIN_H
#define SPOTSIM_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SPOTSIM_PLUGIN_ABI_VERSION 1u

#if defined(_WIN32)
#define SPOTSIM_PLUGIN_EXPORT __declspec(dllexport)
#else
#define SPOTSIM_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

/* int64 milliseconds that mean "never" (INT64_MAX / 4, so that sums of a few of them do not overflow). */
#define SPOTSIM_NEVER ((int64_t)(INT64_MAX / 4))

enum spotsim_purchase { SPOTSIM_PURCHASE_NONE = 0, SPOTSIM_PURCHASE_SPOT = 1, SPOTSIM_PURCHASE_ON_DEMAND = 2 };

enum spotsim_phase {
  SPOTSIM_PHASE_IDLE = 0,          /* no instance held */
  SPOTSIM_PHASE_STARTING = 1,      /* instances requested, booting */
  SPOTSIM_PHASE_RESTORING = 2,     /* reading the last checkpoint */
  SPOTSIM_PHASE_COMPUTING = 3,     /* training */
  SPOTSIM_PHASE_CHECKPOINTING = 4, /* writing a checkpoint (training paused) */
  SPOTSIM_PHASE_DRAINING = 5,      /* emergency checkpoint written, waiting for the announced preemption */
  SPOTSIM_PHASE_DONE = 6,
  SPOTSIM_PHASE_MIGRATING = 7 /* moving the saved state into this zone's region */
};

/* What the policy knows of one zone now. */
typedef struct spotsim_zone_view {
  int32_t spot_available;          /* 1 if the job's spot instances can be obtained now */
  int32_t region;                  /* index of the zone's region (zones of one region share it) */
  double spot_price_per_hour;      /* USD per instance */
  double on_demand_price_per_hour; /* USD per instance */
  int64_t spot_mtbf_ms;            /* expected time between preemptions of the job's spot instances */
  double spot_availability;        /* long-run fraction of time spot can be obtained (1 without a recording) */
  int64_t notice_ms;               /* preemption notice */
  int64_t migration_time_ms;       /* moving the saved state here from data_zone (after the start-up) */
  double migration_cost;           /* egress of that move, USD */
} spotsim_zone_view;

/* The job, as the user gave it. */
typedef struct spotsim_job_view {
  int64_t work_ms;     /* compute time needed */
  int64_t deadline_ms; /* relative to the job's start; SPOTSIM_NEVER = none */
  int64_t checkpoint_write_ms;
  int64_t restore_ms;
  int64_t startup_ms; /* instance request -> ready */
  int32_t nodes;      /* instances the job needs */
  int32_t reserved;   /* 0 */
  double checkpoint_size_gb;
} spotsim_job_view;

/* A read-only snapshot at a decision point, valid only during the call (spotsim's model/observation.hpp). */
typedef struct spotsim_observation {
  int64_t now_ms;          /* wall-clock time in the trace's frame */
  int64_t elapsed_ms;      /* since the job started */
  int64_t progress_ms;     /* work done so far */
  int64_t committed_ms;    /* work saved by the last completed checkpoint */
  int32_t phase;           /* enum spotsim_phase */
  int32_t purchase;        /* enum spotsim_purchase: what is held now */
  int32_t zone;            /* zone held now, -1 if none */
  int32_t data_zone;       /* zone whose region holds the saved state, -1 if nothing is saved */
  int64_t instance_age_ms; /* since the current instance was requested */
  int32_t preemptions;     /* so far */
  int32_t recent_preemption_count;
  const int64_t* recent_preemptions_ms;     /* elapsed times of the latest preemptions, oldest first */
  int64_t spot_time_ms;                     /* total time spot instances were held */
  int64_t wait_time_ms;                     /* total time with no instance */
  int32_t lossless;                         /* 1: progress is never lost (continuous checkpointing) */
  int32_t can_checkpoint;                   /* 0 for checkpoint policy "none" */
  int64_t on_demand_checkpoint_interval_ms; /* compute between checkpoints on on-demand; SPOTSIM_NEVER = none */
  int64_t decision_tick_ms;                 /* > 0 in the Can't Be Late compatibility mode, else 0 */
  spotsim_job_view job;
  int32_t zone_count;
  int32_t reserved; /* 0 */
  const spotsim_zone_view* zones;
} spotsim_observation;

typedef struct spotsim_selection_decision {
  int32_t purchase;     /* enum spotsim_purchase; NONE = hold nothing and wait */
  int32_t zone;         /* 0 .. zone_count-1 (ignored when waiting) */
  int64_t review_at_ms; /* absolute time (now_ms frame) to be asked again; SPOTSIM_NEVER = next event */
  int32_t wake_on_spot; /* 1: ask again as soon as spot is obtainable somewhere (always so when waiting) */
  int32_t reserved;     /* 0 */
} spotsim_selection_decision;

/* The policy's parameters, "name:key=value,..." on the command line. Each getter marks the key as used (spotsim
 * refuses keys no getter asked for) and returns non-zero on a malformed or out-of-range value, after which
 * create() should return NULL: spotsim reports the getter's message. Durations accept "90s", "30m", "1.5h". */
typedef struct spotsim_params {
  void* context;
  int32_t (*duration_ms)(void* context, const char* key, int64_t fallback, int64_t* value);
  int32_t (*number)(void* context, const char* key, double fallback, double min, double max, double* value);
  int32_t (*flag)(void* context, const char* key, int32_t fallback, int32_t* value);
} spotsim_params;

typedef struct spotsim_selection_policy {
  uint32_t abi_version;    /* SPOTSIM_PLUGIN_ABI_VERSION */
  uint32_t struct_size;    /* sizeof(spotsim_selection_policy) */
  const char* name;        /* as used in --policy NAME[:key=value,...] */
  const char* description; /* one line for --list-policies */
  const char* parameters;  /* "key=default (meaning), ..." or "" */
  void* (*create)(const spotsim_params* params, char* error, size_t error_size); /* NULL = refused */
  void (*destroy)(void* state);
  void (*reset)(void* state); /* before each replication */
  int32_t (*decide)(void* state, const spotsim_observation* observation, spotsim_selection_decision* decision,
                    char* error, size_t error_size);
} spotsim_selection_policy;

enum spotsim_checkpoint_flags {
  SPOTSIM_CHECKPOINT_VARIES_WITHIN_INSTANCE = 1, /* next_interval depends on age/progress, not only the instance */
  SPOTSIM_CHECKPOINT_ON_NOTICE = 2,              /* write an emergency checkpoint in the preemption notice */
  SPOTSIM_CHECKPOINT_NEVER = 4                   /* the job cannot checkpoint at all */
};

typedef struct spotsim_checkpoint_policy {
  uint32_t abi_version;
  uint32_t struct_size; /* sizeof(spotsim_checkpoint_policy) */
  const char* name;     /* as used in --checkpoint NAME[:key=value,...] */
  const char* description;
  const char* parameters;
  void* (*create)(const spotsim_params* params, char* error, size_t error_size);
  void (*destroy)(void* state);
  void (*reset)(void* state);
  /* Compute time until the next periodic checkpoint (> 0, or SPOTSIM_NEVER), asked when training (re)starts and
   * after each checkpoint. */
  int32_t (*next_interval)(void* state, const spotsim_observation* observation, int64_t* interval_ms, char* error,
                           size_t error_size);
  uint32_t (*flags)(void* state); /* enum spotsim_checkpoint_flags, or NULL for none */
} spotsim_checkpoint_policy;

typedef struct spotsim_host {
  uint32_t abi_version; /* the host's SPOTSIM_PLUGIN_ABI_VERSION */
  void* context;
  /* 0 on success; non-zero (a message in error) if refused: wrong version, a name already taken, missing fields. */
  int32_t (*add_selection_policy)(void* context, const spotsim_selection_policy* policy, char* error,
                                  size_t error_size);
  int32_t (*add_checkpoint_policy)(void* context, const spotsim_checkpoint_policy* policy, char* error,
                                   size_t error_size);
} spotsim_host;

/* The one function a plugin exports. Returns 0 on success. */
typedef int32_t (*spotsim_plugin_register_fn)(const spotsim_host* host);

#ifdef __cplusplus
}
#endif

#endif /* SPOTSIM_PLUGIN_H */
