/* The Skiff device plugin ABI: what a vendor's shared library exports so that Skiff runs models
 * on its device without being rebuilt (the role of Paddle's CustomDevice `device_ext.h`, with
 * ggml's levels). Plain C, no Skiff header needed: a plugin includes this one file.
 *
 * Levels, each a group of function pointers in SkiffDeviceOps (or a table of its own):
 *   registry  the device type name, how many devices, their properties;
 *   device    init/finalize, set/get the current device, memory info;
 *   memory    device and host-pinned allocation, memcpy h2d/d2h/d2d (sync and on a stream), memset;
 *   streams   streams and events: create, destroy, record, query, synchronize, wait-event;
 *   kernels   C kernel functions keyed by (op name, dtype, layout), receiving SkiffTensor structs
 *             and attributes (SkiffKernelDef, SkiffKernelCall);
 *   ccl       collectives: comm init from a unique id, all_reduce, all_gather, reduce_scatter,
 *             broadcast, send/recv, group start/end (SkiffCclOps, optional).
 *
 * Entry point. The plugin exports
 *     int skiff_device_plugin_init(uint32_t host_major, uint32_t host_minor, SkiffPluginInfo* info);
 * Skiff calls it once after dlopen with the ABI version it was built with; the plugin fills
 * `info` (its own ABI version, the device type, pointers to its static tables) and returns 0.
 * The tables must stay valid until the library is unloaded (Skiff never unloads it).
 *
 * Versioning. SKIFF_DEVICE_ABI_MAJOR changes when anything existing changes meaning or layout:
 * a plugin of another major is refused with an error naming both versions. A minor version only
 * appends members at the end of SkiffDeviceOps / SkiffCclOps; the plugin states the size it was
 * compiled with (`ops_size`), Skiff reads only that prefix, requires exactly the functions of
 * the plugin's minor version and supplies defaults for newer optional ones. So a plugin built
 * against an older minor keeps loading. Every required pointer is checked at load: a missing
 * one is an error naming the function, never a crash of the host.
 *
 * Conventions. Every function returns SkiffStatus (SKIFF_SUCCESS = 0). A null stream means the
 * device's default stream. Synchronous copies behave as if issued on the default stream and
 * wait for it: they see all work queued before them. Device pointers are opaque to Skiff: it
 * never dereferences them and moves bytes only through the memcpy functions. Sizes are bytes;
 * dims and strides are elements. Errors may leave a message for `get_last_error`.
 */
#ifndef SKIFF_C_DEVICE_EXT_H_
#define SKIFF_C_DEVICE_EXT_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SKIFF_DEVICE_ABI_MAJOR 1
/* Minor 0: the base set. Minor 1 appends get_device_properties and memset, both optional
 * (without the first, Skiff names the device after its type and reports memory_info's total;
 * Skiff does not call memset yet). */
#define SKIFF_DEVICE_ABI_MINOR 1

#define SKIFF_PLUGIN_INIT_SYMBOL "skiff_device_plugin_init"
#define SKIFF_MAX_DIMS 9
#define SKIFF_MAX_NAME 64

#if defined(__GNUC__)
#define SKIFF_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define SKIFF_PLUGIN_EXPORT
#endif

typedef enum SkiffStatus {
  SKIFF_SUCCESS = 0,
  SKIFF_ERROR = 1,          /* any failure; details from get_last_error */
  SKIFF_OUT_OF_MEMORY = 2,  /* allocation failed: Skiff frees cached blocks and retries */
  SKIFF_UNSUPPORTED = 3,    /* a kernel cannot handle this call (layout, attribute value) */
  SKIFF_NOT_READY = 4       /* query_stream / query_event: work still pending */
} SkiffStatus;

/* Element types; the values are part of the ABI. */
typedef enum SkiffDType {
  SKIFF_BOOL = 0,
  SKIFF_INT8 = 1,
  SKIFF_UINT8 = 2,
  SKIFF_INT16 = 3,
  SKIFF_INT32 = 4,
  SKIFF_INT64 = 5,
  SKIFF_FLOAT16 = 6,
  SKIFF_BFLOAT16 = 7,
  SKIFF_FLOAT32 = 8,
  SKIFF_FLOAT64 = 9
} SkiffDType;

/* Memory layouts a kernel accepts. STRIDED: any strides (the kernel reads `strides`);
 * CONTIGUOUS: Skiff makes inputs contiguous (row-major) before the call. */
typedef enum SkiffLayout { SKIFF_LAYOUT_CONTIGUOUS = 0, SKIFF_LAYOUT_STRIDED = 1 } SkiffLayout;

typedef struct SkiffStream_* SkiffStream;
typedef struct SkiffEvent_* SkiffEvent;

/* ---- registry level ------------------------------------------------------------------------ */

typedef struct SkiffDeviceProperties {
  char name[SKIFF_MAX_NAME]; /* e.g. "Emulated NPU" */
  uint64_t total_memory;     /* bytes */
  int32_t compute_units;
} SkiffDeviceProperties;

/* ---- kernels ------------------------------------------------------------------------------- */

/* A tensor as a kernel sees it. `data` points at element 0 (the view's offset applied). A
 * missing optional input has data == NULL and ndim == -1. Outputs arrive allocated with their
 * final dims (Skiff runs shape inference); a kernel writes them and never allocates. */
typedef struct SkiffTensor {
  void* data;
  int32_t ndim;
  int32_t dtype; /* SkiffDType */
  int64_t dims[SKIFF_MAX_DIMS];
  int64_t strides[SKIFF_MAX_DIMS];
  int32_t device_id;
} SkiffTensor;

typedef enum SkiffAttrKind {
  SKIFF_ATTR_BOOL = 0,    /* i (0/1) */
  SKIFF_ATTR_INT = 1,     /* i */
  SKIFF_ATTR_FLOAT = 2,   /* f (float, double and Scalar attributes) */
  SKIFF_ATTR_STRING = 3,  /* s */
  SKIFF_ATTR_INTS = 4,    /* ints[count] */
  SKIFF_ATTR_FLOATS = 5,  /* floats[count] */
  SKIFF_ATTR_DTYPE = 6    /* i (SkiffDType) */
} SkiffAttrKind;

typedef struct SkiffAttr {
  const char* name; /* the op record's argument name */
  int32_t kind;     /* SkiffAttrKind */
  int64_t i;
  double f;
  const char* s;
  const int64_t* ints;
  const double* floats;
  int64_t count;
} SkiffAttr;

/* One kernel call. Inputs are the record's tensor arguments in order, a Tensor[] argument
 * expanded in place; `input_begin[k]` is the index of tensor argument k's first tensor (so
 * argument k has input_begin[k+1] - input_begin[k] tensors). Outputs likewise. The kernel may
 * run asynchronously on `stream`: it must copy what it needs from this struct before
 * returning (the struct and its arrays live only for the call). */
typedef struct SkiffKernelCall {
  const char* op; /* record name, e.g. "matmul" (in-place variants: the record's name) */
  int32_t dtype;  /* the kernel dtype the def was registered for */
  int32_t device_id;
  SkiffStream stream;
  const SkiffTensor* inputs;
  int32_t num_inputs;
  const int32_t* input_begin; /* num_tensor_args + 1 entries */
  int32_t num_tensor_args;
  SkiffTensor* outputs;
  int32_t num_outputs;
  const SkiffAttr* attrs;
  int32_t num_attrs;
} SkiffKernelCall;

typedef SkiffStatus (*SkiffKernelFn)(const SkiffKernelCall* call);

typedef struct SkiffKernelDef {
  const char* op; /* an op record name of Skiff's (see `skiff ops`) */
  int32_t dtype;  /* SkiffDType */
  int32_t layout; /* SkiffLayout */
  SkiffKernelFn fn;
} SkiffKernelDef;

/* ---- collectives (CCL hooks) --------------------------------------------------------------- */

#define SKIFF_CCL_UNIQUE_ID_BYTES 128
typedef struct SkiffCclUniqueId {
  uint8_t bytes[SKIFF_CCL_UNIQUE_ID_BYTES];
} SkiffCclUniqueId;
typedef struct SkiffCclComm_* SkiffCclComm;
typedef enum SkiffReduceOp {
  SKIFF_REDUCE_SUM = 0,
  SKIFF_REDUCE_MAX = 1,
  SKIFF_REDUCE_MIN = 2,
  SKIFF_REDUCE_PROD = 3,
  SKIFF_REDUCE_AVG = 4
} SkiffReduceOp;

/* Optional as a whole (info->ccl == NULL); when present every member of the plugin's minor
 * version is required. Counts are elements of `dtype`. */
typedef struct SkiffCclOps {
  SkiffStatus (*get_unique_id)(SkiffCclUniqueId* id);
  SkiffStatus (*comm_init_rank)(int32_t nranks, const SkiffCclUniqueId* id, int32_t rank,
                                int32_t device_id, SkiffCclComm* comm);
  SkiffStatus (*comm_destroy)(SkiffCclComm comm);
  SkiffStatus (*all_reduce)(const void* send, void* recv, size_t count, int32_t dtype,
                            int32_t reduce_op, SkiffCclComm comm, SkiffStream stream);
  SkiffStatus (*all_gather)(const void* send, void* recv, size_t send_count, int32_t dtype,
                            SkiffCclComm comm, SkiffStream stream);
  SkiffStatus (*reduce_scatter)(const void* send, void* recv, size_t recv_count, int32_t dtype,
                                int32_t reduce_op, SkiffCclComm comm, SkiffStream stream);
  SkiffStatus (*broadcast)(void* buf, size_t count, int32_t dtype, int32_t root,
                           SkiffCclComm comm, SkiffStream stream);
  SkiffStatus (*send)(const void* buf, size_t count, int32_t dtype, int32_t peer,
                      SkiffCclComm comm, SkiffStream stream);
  SkiffStatus (*recv)(void* buf, size_t count, int32_t dtype, int32_t peer, SkiffCclComm comm,
                      SkiffStream stream);
  SkiffStatus (*group_start)(void);
  SkiffStatus (*group_end)(void);
} SkiffCclOps;

/* ---- the device table ---------------------------------------------------------------------- */

typedef struct SkiffDeviceOps {
  /* registry + device level (minor 0, required) */
  SkiffStatus (*init)(void); /* once, before any other call */
  SkiffStatus (*finalize)(void);
  SkiffStatus (*get_device_count)(int32_t* count);
  SkiffStatus (*init_device)(int32_t device_id);
  SkiffStatus (*deinit_device)(int32_t device_id);
  SkiffStatus (*set_device)(int32_t device_id);
  SkiffStatus (*get_device)(int32_t* device_id);
  SkiffStatus (*memory_info)(int32_t device_id, size_t* total, size_t* free_bytes);

  /* memory level (minor 0, required) */
  SkiffStatus (*allocate)(int32_t device_id, size_t nbytes, void** ptr);
  SkiffStatus (*deallocate)(int32_t device_id, void* ptr, size_t nbytes);
  SkiffStatus (*host_allocate)(int32_t device_id, size_t nbytes, void** ptr); /* pinned */
  SkiffStatus (*host_deallocate)(int32_t device_id, void* ptr, size_t nbytes);
  SkiffStatus (*memcpy_h2d)(int32_t device_id, void* dst, const void* src, size_t nbytes);
  SkiffStatus (*memcpy_d2h)(int32_t device_id, void* dst, const void* src, size_t nbytes);
  SkiffStatus (*memcpy_d2d)(int32_t device_id, void* dst, const void* src, size_t nbytes);
  SkiffStatus (*async_memcpy_h2d)(int32_t device_id, SkiffStream stream, void* dst,
                                  const void* src, size_t nbytes);
  SkiffStatus (*async_memcpy_d2h)(int32_t device_id, SkiffStream stream, void* dst,
                                  const void* src, size_t nbytes);
  SkiffStatus (*async_memcpy_d2d)(int32_t device_id, SkiffStream stream, void* dst,
                                  const void* src, size_t nbytes);

  /* streams and events (minor 0, required) */
  SkiffStatus (*create_stream)(int32_t device_id, SkiffStream* stream);
  SkiffStatus (*destroy_stream)(int32_t device_id, SkiffStream stream);
  SkiffStatus (*query_stream)(int32_t device_id, SkiffStream stream); /* SUCCESS or NOT_READY */
  SkiffStatus (*synchronize_stream)(int32_t device_id, SkiffStream stream);
  SkiffStatus (*create_event)(int32_t device_id, SkiffEvent* event);
  SkiffStatus (*destroy_event)(int32_t device_id, SkiffEvent event);
  SkiffStatus (*record_event)(int32_t device_id, SkiffStream stream, SkiffEvent event);
  SkiffStatus (*query_event)(int32_t device_id, SkiffEvent event); /* SUCCESS or NOT_READY */
  SkiffStatus (*synchronize_event)(int32_t device_id, SkiffEvent event);
  SkiffStatus (*stream_wait_event)(int32_t device_id, SkiffStream stream, SkiffEvent event);
  SkiffStatus (*synchronize_device)(int32_t device_id);

  /* errors (minor 0, optional): the message of the calling thread's last failure */
  const char* (*get_last_error)(void);

  /* minor 1 (optional) */
  SkiffStatus (*get_device_properties)(int32_t device_id, SkiffDeviceProperties* props);
  SkiffStatus (*memset)(int32_t device_id, SkiffStream stream, void* ptr, int value,
                        size_t nbytes);
} SkiffDeviceOps;

/* What the plugin fills in skiff_device_plugin_init. Fixed for a major version; abi_major and
 * abi_minor stay its first two members in every major, so Skiff can name a foreign version. */
typedef struct SkiffPluginInfo {
  uint32_t abi_major;      /* SKIFF_DEVICE_ABI_MAJOR as the plugin was compiled */
  uint32_t abi_minor;      /* SKIFF_DEVICE_ABI_MINOR as the plugin was compiled */
  const char* device_type; /* [a-z][a-z0-9_]*, not cpu/gpu/cuda; e.g. "emu_npu" */
  const char* vendor;      /* free text, may be NULL */
  const SkiffDeviceOps* ops;
  uint32_t ops_size; /* sizeof(SkiffDeviceOps) as the plugin was compiled */
  const SkiffKernelDef* kernels;
  uint32_t num_kernels;
  const SkiffCclOps* ccl; /* NULL: no collectives */
  uint32_t ccl_size;      /* sizeof(SkiffCclOps) as the plugin was compiled */
} SkiffPluginInfo;

typedef int (*SkiffPluginInitFn)(uint32_t host_major, uint32_t host_minor, SkiffPluginInfo* info);

#ifdef __cplusplus
}
#endif

#endif /* SKIFF_C_DEVICE_EXT_H_ */
