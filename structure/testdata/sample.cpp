#include <vector>
#include "pool.hpp"

namespace net {

class Pool : public Base {
public:
    Pool(int size);
    int size() const { return size_; }
private:
    int size_;
};

Pool::Pool(int size) : size_(size) {
    init(size);
}

template <typename T>
T max_of(T a, T b) {
    return std::max(a, b);
}

}  // namespace net
