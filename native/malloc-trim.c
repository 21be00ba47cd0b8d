/*
 * Countersign's one native function: malloc_trim(0), for the idle collection.
 *
 * glibc's malloc gives memory back to the system only from the top of its main heap. After
 * a burst of work the heap holds many freed pages below a few long-lived blocks, resident
 * for as long as the process runs; malloc_trim(0) hands every whole free page back
 * (madvise MADV_DONTNEED), wherever it is. Node has no way to call it, hence this N-API
 * module (docs/architecture.md, Memory). Where the C library is not glibc, trim() does
 * nothing and says so.
 *
 * Built by scripts/build-native.mjs with the C compiler and Node's own headers, when both
 * are there; the service runs the same without it (src-main/backend/malloc-trim.ts).
 */
#include <node_api.h>
#include <stdbool.h>
#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>
#endif

/* trim(): true when memory was given back, false when there was none (or no glibc). */
static napi_value Trim(napi_env env, napi_callback_info info) {
  (void)info;
  bool released = false;
#ifdef __GLIBC__
  released = malloc_trim(0) == 1;
#endif
  napi_value result;
  napi_get_boolean(env, released, &result);
  return result;
}

/* glibc(): whether trim() can do anything here. */
static napi_value Glibc(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value result;
#ifdef __GLIBC__
  napi_get_boolean(env, true, &result);
#else
  napi_get_boolean(env, false, &result);
#endif
  return result;
}

static napi_value Init(napi_env env, napi_value exports) {
  napi_value fn;
  napi_create_function(env, "trim", NAPI_AUTO_LENGTH, Trim, NULL, &fn);
  napi_set_named_property(env, exports, "trim", fn);
  napi_create_function(env, "glibc", NAPI_AUTO_LENGTH, Glibc, NULL, &fn);
  napi_set_named_property(env, exports, "glibc", fn);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
