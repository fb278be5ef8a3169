from ruling.cli import main

main()
