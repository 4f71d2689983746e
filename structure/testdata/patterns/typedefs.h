typedef struct ring_s {
    unsigned head; /* } not here */
    struct {
        int depth;
    } inner;
} ring_t, *ring_ptr;

typedef enum
{
    ring_ok,
    ring_full
} ring_status;

typedef union { unsigned u; } __attribute__((packed)) unaligned_u;
typedef struct ring_s ring_alias;
typedef struct {
    int a;
    } ring_indented_close;
