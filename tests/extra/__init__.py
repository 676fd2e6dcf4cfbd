"""Games that exist only in the tests, registered to prove the interface is enough."""
