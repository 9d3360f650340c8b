#ifndef IMAGE_CODECS_H
#define IMAGE_CODECS_H
#endif
