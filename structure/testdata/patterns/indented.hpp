namespace shapes {
    namespace detail {
        struct Marker {};
    }
    class Canvas : public Surface {
    public:
        enum class Fill { None, Solid };
        template <typename T>
        struct Layer {
            T content;
        };
        using Clock = std::chrono::steady_clock;
        void draw() {
            struct stat st;
            class Forward;
        }
    };
}
