#include <stdio.h>
#include "util/buf.h"

#define MAX_BUF 64
#define MIN(a, b) ((a) < (b) ? (a) : (b))

struct buf {
    char *data;
    int len;
};

typedef struct buf buf_t;

enum color { RED, GREEN };

int buf_len(const buf_t *b);

static char *buf_data(buf_t *b)
{
    return b->data;
}

int main(int argc, char **argv)
{
    buf_t b;
    printf("%d\n", buf_len(&b));
    return 0;
}
