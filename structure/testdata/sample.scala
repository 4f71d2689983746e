package com.acme.auth

import scala.collection.mutable
import com.acme.util.{Strings, Clock}

trait Verifier {
  def verify(token: String): Boolean
}

class TokenService(ttl: Int) extends Verifier {
  val name = "tokens"

  def verify(token: String): Boolean = {
    val now = Clock.now()
    check(token, now)
  }
}

object TokenService {
  def apply(): TokenService = new TokenService(3600)
}
