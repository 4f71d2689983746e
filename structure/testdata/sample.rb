require 'json'
require_relative 'lib/auth'

module Auth
  TTL = 3600

  class Token < Base
    def initialize(value)
      @value = value
    end

    def self.parse(text)
      new(JSON.parse(text))
    end

    def expired?
      Clock.now > expiry
    end
  end
end
