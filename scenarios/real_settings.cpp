// scenarios/real_settings.cpp
//
// Name lists gathered from PostgreSQL's guc_tables.c (guc.c before 15) of
// each release 9.0-17 and from Linux's kernel/sysctl.c and mm/ sysctl tables.
#include "scenarios/real_settings.h"

#include <algorithm>

namespace ckptsim::scenarios {

namespace {

std::vector<std::string> sorted(std::initializer_list<const char*> names) {
  std::vector<std::string> out(names.begin(), names.end());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

const std::vector<std::string>& postgres_parameter_names() {
  static const std::vector<std::string> names = sorted({
      // File locations
      "data_directory", "config_file", "hba_file", "ident_file", "external_pid_file",
      // Connections and authentication
      "listen_addresses", "port", "max_connections", "reserved_connections", "superuser_reserved_connections",
      "unix_socket_directories", "unix_socket_directory", "unix_socket_group", "unix_socket_permissions",
      "bonjour", "bonjour_name", "tcp_keepalives_idle", "tcp_keepalives_interval", "tcp_keepalives_count",
      "tcp_user_timeout", "client_connection_check_interval", "authentication_timeout", "password_encryption",
      "scram_iterations", "krb_server_keyfile", "krb_caseins_users", "krb_srvname", "gss_accept_delegation",
      "db_user_namespace", "ssl", "ssl_ca_file", "ssl_cert_file", "ssl_crl_file", "ssl_crl_dir", "ssl_key_file",
      "ssl_ciphers", "ssl_prefer_server_ciphers", "ssl_ecdh_curve", "ssl_min_protocol_version",
      "ssl_max_protocol_version", "ssl_dh_params_file", "ssl_passphrase_command",
      "ssl_passphrase_command_supports_reload", "ssl_renegotiation_limit", "ssl_library", "silent_mode",
      // Resource usage
      "shared_buffers", "huge_pages", "huge_page_size", "huge_pages_status", "temp_buffers",
      "max_prepared_transactions", "work_mem", "hash_mem_multiplier", "maintenance_work_mem",
      "autovacuum_work_mem", "logical_decoding_work_mem", "max_stack_depth", "shared_memory_type",
      "dynamic_shared_memory_type", "min_dynamic_shared_memory", "temp_file_limit", "max_files_per_process",
      "vacuum_buffer_usage_limit", "vacuum_cost_delay", "vacuum_cost_page_hit", "vacuum_cost_page_miss",
      "vacuum_cost_page_dirty", "vacuum_cost_limit", "bgwriter_delay", "bgwriter_lru_maxpages",
      "bgwriter_lru_multiplier", "bgwriter_flush_after", "backend_flush_after", "effective_io_concurrency",
      "maintenance_io_concurrency", "io_combine_limit", "max_worker_processes", "max_parallel_workers_per_gather",
      "max_parallel_maintenance_workers", "max_parallel_workers", "parallel_leader_participation",
      "old_snapshot_threshold", "commit_timestamp_buffers", "multixact_member_buffers",
      "multixact_offset_buffers", "notify_buffers", "serializable_buffers", "subtransaction_buffers",
      "transaction_buffers", "max_notify_queue_pages",
      // Write-ahead log and checkpoints
      "wal_level", "fsync", "synchronous_commit", "wal_sync_method", "full_page_writes", "wal_log_hints",
      "wal_compression", "wal_init_zero", "wal_recycle", "wal_buffers", "wal_writer_delay",
      "wal_writer_flush_after", "wal_skip_threshold", "commit_delay", "commit_siblings", "checkpoint_timeout",
      "checkpoint_completion_target", "checkpoint_flush_after", "checkpoint_warning", "checkpoint_segments",
      "max_wal_size", "min_wal_size", "archive_mode", "archive_command", "archive_library", "archive_timeout",
      "archive_cleanup_command", "restore_command", "recovery_end_command", "recovery_target",
      "recovery_target_name", "recovery_target_time", "recovery_target_xid", "recovery_target_lsn",
      "recovery_target_inclusive", "recovery_target_timeline", "recovery_target_action", "recovery_prefetch",
      "wal_decode_buffer_size", "summarize_wal", "wal_summary_keep_time", "wal_consistency_checking",
      "wal_debug", "wal_block_size", "wal_segment_size",
      // Replication
      "wal_keep_segments", "wal_keep_size", "max_slot_wal_keep_size", "wal_sender_timeout", "max_wal_senders",
      "max_replication_slots", "track_commit_timestamp", "synchronous_standby_names", "vacuum_defer_cleanup_age",
      "primary_conninfo", "primary_slot_name", "promote_trigger_file", "hot_standby",
      "max_standby_archive_delay", "max_standby_streaming_delay", "wal_receiver_create_temp_slot",
      "wal_receiver_status_interval", "hot_standby_feedback", "wal_receiver_timeout",
      "wal_retrieve_retry_interval", "recovery_min_apply_delay", "max_logical_replication_workers",
      "max_sync_workers_per_subscription", "max_parallel_apply_workers_per_subscription", "replication_timeout",
      "wal_sender_delay", "sync_replication_slots", "synchronized_standby_slots", "in_hot_standby",
      // Query planning
      "enable_async_append", "enable_bitmapscan", "enable_gathermerge", "enable_hashagg", "enable_hashjoin",
      "enable_incremental_sort", "enable_indexscan", "enable_indexonlyscan", "enable_material",
      "enable_memoize", "enable_mergejoin", "enable_nestloop", "enable_parallel_append", "enable_parallel_hash",
      "enable_partition_pruning", "enable_partitionwise_join", "enable_partitionwise_aggregate",
      "enable_presorted_aggregate", "enable_seqscan", "enable_sort", "enable_tidscan",
      "enable_group_by_reordering", "seq_page_cost", "random_page_cost", "cpu_tuple_cost",
      "cpu_index_tuple_cost", "cpu_operator_cost", "parallel_setup_cost", "parallel_tuple_cost",
      "min_parallel_table_scan_size", "min_parallel_index_scan_size", "min_parallel_relation_size",
      "effective_cache_size", "jit_above_cost", "jit_inline_above_cost", "jit_optimize_above_cost", "geqo",
      "geqo_threshold", "geqo_effort", "geqo_pool_size", "geqo_generations", "geqo_selection_bias", "geqo_seed",
      "default_statistics_target", "constraint_exclusion", "cursor_tuple_fraction", "from_collapse_limit", "jit",
      "join_collapse_limit", "plan_cache_mode", "recursive_worktable_factor", "force_parallel_mode",
      "debug_parallel_query", "replacement_sort_tuples",
      // Reporting and logging
      "log_destination", "logging_collector", "log_directory", "log_filename", "log_file_mode",
      "log_rotation_age", "log_rotation_size", "log_truncate_on_rotation", "syslog_facility", "syslog_ident",
      "syslog_sequence_numbers", "syslog_split_messages", "event_source", "log_min_messages",
      "log_min_error_statement", "log_min_duration_statement", "log_min_duration_sample",
      "log_statement_sample_rate", "log_transaction_sample_rate", "log_startup_progress_interval",
      "application_name", "debug_print_parse", "debug_print_rewritten", "debug_print_plan",
      "debug_pretty_print", "log_autovacuum_min_duration", "log_checkpoints", "log_connections",
      "log_disconnections", "log_duration", "log_error_verbosity", "log_hostname", "log_line_prefix",
      "log_lock_waits", "log_recovery_conflict_waits", "log_parameter_max_length",
      "log_parameter_max_length_on_error", "log_statement", "log_replication_commands", "log_temp_files",
      "log_timezone", "cluster_name", "update_process_title",
      // Statistics
      "track_activities", "track_activity_query_size", "track_counts", "track_io_timing", "track_wal_io_timing",
      "track_functions", "stats_temp_directory", "stats_fetch_consistency", "compute_query_id",
      "log_statement_stats", "log_parser_stats", "log_planner_stats", "log_executor_stats",
      // Autovacuum
      "autovacuum", "autovacuum_max_workers", "autovacuum_naptime", "autovacuum_vacuum_threshold",
      "autovacuum_vacuum_insert_threshold", "autovacuum_analyze_threshold", "autovacuum_vacuum_scale_factor",
      "autovacuum_vacuum_insert_scale_factor", "autovacuum_analyze_scale_factor", "autovacuum_freeze_max_age",
      "autovacuum_multixact_freeze_max_age", "autovacuum_vacuum_cost_delay", "autovacuum_vacuum_cost_limit",
      // Client connection defaults
      "client_min_messages", "search_path", "row_security", "default_table_access_method",
      "default_tablespace", "default_toast_compression", "temp_tablespaces", "check_function_bodies",
      "default_transaction_isolation", "default_transaction_read_only", "default_transaction_deferrable",
      "session_replication_role", "statement_timeout", "transaction_timeout", "lock_timeout",
      "idle_in_transaction_session_timeout", "idle_session_timeout", "vacuum_freeze_table_age",
      "vacuum_freeze_min_age", "vacuum_failsafe_age", "vacuum_multixact_freeze_table_age",
      "vacuum_multixact_freeze_min_age", "vacuum_multixact_failsafe_age", "vacuum_cleanup_index_scale_factor",
      "bytea_output", "xmlbinary", "xmloption", "gin_pending_list_limit", "gin_fuzzy_search_limit",
      "createrole_self_grant", "event_triggers", "restrict_nonsystem_relation_kind", "datestyle",
      "intervalstyle", "timezone", "timezone_abbreviations", "extra_float_digits", "client_encoding",
      "lc_messages", "lc_monetary", "lc_numeric", "lc_time", "lc_collate", "lc_ctype",
      "default_text_search_config", "icu_validation_level", "local_preload_libraries",
      "session_preload_libraries", "shared_preload_libraries", "jit_provider", "dynamic_library_path",
      "default_with_oids", "sql_inheritance", "add_missing_from", "custom_variable_classes",
      // Lock management, compatibility, errors
      "deadlock_timeout", "max_locks_per_transaction", "max_pred_locks_per_transaction",
      "max_pred_locks_per_relation", "max_pred_locks_per_page", "array_nulls", "backslash_quote",
      "escape_string_warning", "lo_compat_privileges", "operator_precedence_warning", "quote_all_identifiers",
      "standard_conforming_strings", "synchronize_seqscans", "transform_null_equals", "exit_on_error",
      "restart_after_crash", "data_sync_retry", "recovery_init_sync_method", "allow_alter_system",
      // Preset (read-only) and developer options
      "block_size", "data_checksums", "data_directory_mode", "debug_assertions", "integer_datetimes",
      "max_function_args", "max_identifier_length", "max_index_keys", "segment_size", "server_encoding",
      "server_version", "server_version_num", "shared_memory_size", "shared_memory_size_in_huge_pages",
      "allow_in_place_tablespaces", "allow_system_table_mods", "backtrace_functions", "debug_discard_caches",
      "debug_io_direct", "debug_logical_replication_streaming", "ignore_checksum_failure",
      "ignore_invalid_pages", "ignore_system_indexes", "jit_debugging_support", "jit_dump_bitcode",
      "jit_expressions", "jit_profiling_support", "jit_tuple_deforming", "post_auth_delay", "pre_auth_delay",
      "trace_notify", "trace_recovery_messages", "trace_sort", "trace_locks", "trace_lwlocks",
      "trace_userlocks", "trace_lock_oidmin", "trace_lock_table", "debug_deadlocks", "log_btree_build_stats",
      "zero_damaged_pages", "send_abort_for_crash", "send_abort_for_kill",
      // Debian's packages add one (extension_destdir, debian/patches)
      "extension_destdir",
  });
  return names;
}

const std::vector<std::string>& linux_vm_sysctl_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const char* name :
         {"admin_reserve_kbytes", "block_dump", "compact_memory", "compaction_proactiveness",
          "compact_unevictable_allowed", "dirty_background_bytes", "dirty_background_ratio", "dirty_bytes",
          "dirty_expire_centisecs", "dirty_ratio", "dirtytime_expire_seconds", "dirty_writeback_centisecs",
          "drop_caches", "enable_soft_offline", "extfrag_threshold", "highmem_is_dirtyable", "hugetlb_shm_group",
          "hugepages_treat_as_movable", "laptop_mode", "legacy_va_layout", "lowmem_reserve_ratio",
          "max_map_count", "memory_failure_early_kill", "memory_failure_recovery", "min_free_kbytes",
          "min_slab_ratio", "min_unmapped_ratio", "mmap_min_addr", "mmap_rnd_bits", "mmap_rnd_compat_bits",
          "nr_hugepages", "nr_hugepages_mempolicy", "nr_overcommit_hugepages", "nr_pdflush_threads",
          "nr_trim_pages", "numa_stat", "numa_zonelist_order", "oom_dump_tasks", "oom_kill_allocating_task",
          "overcommit_kbytes", "overcommit_memory", "overcommit_ratio", "page-cluster", "page_lock_unfairness",
          "panic_on_oom", "percpu_pagelist_fraction", "percpu_pagelist_high_fraction", "scan_unevictable_pages",
          "stat_interval", "stat_refresh", "swappiness", "unprivileged_userfaultfd", "user_reserve_kbytes",
          "vfs_cache_pressure", "watermark_boost_factor", "watermark_scale_factor", "zone_reclaim_mode"}) {
      out.push_back(std::string("vm.") + name);
    }
    return out;
  }();
  return names;
}

const std::vector<std::string>& other_sysctl_directories() {
  static const std::vector<std::string> directories{"abi",    "crypto", "debug",  "dev", "fs",
                                                    "kernel", "net",    "sunrpc", "user"};
  return directories;
}

bool is_other_sysctl_directory(std::string_view directory) {
  const std::vector<std::string>& all = other_sysctl_directories();
  return std::find(all.begin(), all.end(), directory) != all.end();
}

}  // namespace ckptsim::scenarios
