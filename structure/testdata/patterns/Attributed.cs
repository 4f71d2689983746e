namespace Patterns
{
    public class Attributed
    {
        [HttpGet("x")] public IActionResult Get()
        {
            return Ok();
        }

        public (int count, string name) Pair()
        {
            (a, b) = Swap(a, b);
            return (1, "a");
        }

        public (int, string)? Find() => null;

        [Fact][Trait("a", "b")] async Task Runs()
        {
            var n = (int) Count();
        }
    }
}
