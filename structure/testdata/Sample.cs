using System;
using System.Collections.Generic;
using Alias = Acme.Auth.Token;

namespace Acme.Auth
{
    public interface IVerifier
    {
        bool Verify(Token t);
    }

    public class TokenService : BaseService, IVerifier
    {
        public TokenService() { }

        public int Count { get; set; }

        public bool Verify(Token t)
        {
            var list = new List<Token>();
            return Check(t) && list.Contains(t);
        }
    }

    public enum State { Valid, Expired }
}
