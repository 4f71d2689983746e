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

namespace txt::detail {
class Outer::Inner : public Base {
};
}

namespace a::inline b {
class Outer::Inner {
 public:
  Inner(int x) : x_(x) {
  }
  ~Inner() {
  }
};
}

template <> struct std::hash<Foo> {
  size_t operator()(const Foo& f) const { return 0; }
};

namespace c::inline	  d {
}
