from ledger import Ledger


def test_empty_balance():
    assert Ledger().balance() == 0


def test_deposits_add_up():
    book = Ledger()
    book.deposit(10)
    book.deposit(5)
    assert book.balance() == 15
