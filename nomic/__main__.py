from nomic.cli import main

main()
