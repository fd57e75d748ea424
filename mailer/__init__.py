"""Mail in, mail parsed into commands, mail out."""
