/* Typedefs of types with bodies: the tag and the names after the brace. */
typedef struct queue_node {
    struct queue_node *next;
    void *item;
} queue_node_t, *queue_node_p;

typedef struct
{
    unsigned capacity; /* } in a comment */
    queue_node_t *head;
}
queue_t;

typedef enum queue_error { QUEUE_OK, QUEUE_EMPTY } queue_error_t;

typedef union {
    long whole;
    struct { int low, high; } parts;
} queue_word;

typedef queue_t *queue_ref;
