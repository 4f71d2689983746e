#pragma once

namespace outer {
namespace inner
{
int f(int a) {
    return a;
}

class K {
public:
    void m();
};
}  // namespace inner

inline namespace v1 {
int g() { return 1; }
}
}  // namespace outer

namespace open {
#ifdef A
void h() {
#else
void h(int) {
#endif
}
}

namespace fmt::detail {
class Outer::Inner : public Base {
};
}
